// Every recorded YouTube response in the shared fixture set (SOURCES.md), through our real code paths: player and
// reel_item_watch JSON served as the /youtubei/v1/player answer to youtubei.js (18.x calls /player for every client,
// and unwraps {"playerResponse": ...} itself), watch pages served as GET /watch, timedtext files parsed.
// Expected track lists and video details are read from SOURCES.md's verified expectations, so they are exactly
// what was verified there; the expected error code per file is ours.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { classifyPlayability } from '../../src/infra/youtube/classify-playability.ts';
import { findChapters } from '../../src/infra/youtube/map-video.ts';
import { createYoutubeSource } from '../../src/infra/youtube/create-youtube-source.ts';
import { parseJson3 } from '../../src/infra/youtube/parse-json3.ts';
import { parseTimedTextXml } from '../../src/infra/youtube/parse-srv3.ts';
import { parseVtt } from '../../src/infra/youtube/parse-vtt.ts';
import { unwrapPlayerResponse } from '../../src/infra/youtube/player-response.ts';
import { fakeYoutube, html, json } from '../support/fake-youtube.ts';
import { readShared, SHARED_DIR, sharedAvailable } from '../support/fixture-files.ts';
import { expectationsFor, sourcesFiles } from '../support/youtube-sources.ts';

/** Our answer for each player-response fixture: 'OK' or the ServiceError code. */
const EXPECTED: Record<string, string> = {
  'player.captions.GJLlxj_dtq8.json': 'OK',
  'player.captions.manual-and-asr.F1xioXWb8CY.json': 'OK',
  'player.age-restricted.Njp5uhTorCo.json': 'VIDEO_AGE_RESTRICTED',
  'player.bot-check.login-required.json': 'EXTRACTION_FAILED',
  'player.video-unavailable.json': 'VIDEO_NOT_FOUND',
  'player.no-captions.dsMFmonKDD4.json': 'OK',
  'player.no-captions.live-replay.Fjg5lYqvzUs.json': 'OK',
  'player.visionos.captions-36-tracks.3sbYbckT1VY.json': 'OK',
  'player.visionos.captions-19-tracks.multi-audio.kX3nB4PpJko.json': 'OK',
  'player.visionos.captions.manual-and-asr.M4gD1WSo5mA.json': 'OK',
  'player.visionos.asr-only.fr.cJ9to6EmElQ.json': 'OK',
  'player.visionos.manual-only.de.ud9d5cMDP_0.json': 'OK',
  'player.visionos.live-no-captions.X4VbdwhkE10.json': 'OK',
  'player.visionos.unplayable-for-client.it3OtbTxQk0.json': 'VIDEO_UNPLAYABLE',
  'reel-item-watch.android.captions.asr-only.it3OtbTxQk0.json': 'OK',
  'reel-item-watch.android.unplayable.region-blocked._PL2HJKxnOM.json': 'VIDEO_REGION_BLOCKED',
  'reel-item-watch.android.unplayable.members-only.ayI2iBwGdxw.json': 'VIDEO_MEMBERS_ONLY',
  'reel-item-watch.android.unplayable.music-premium.sMJ8bRN2dak.json': 'VIDEO_PAID',
  'reel-item-watch.android.nonexistent.empty-object.json': 'VIDEO_NOT_FOUND',
  'player.web.fields-microformat-only.M4gD1WSo5mA.json': 'OK',
  'player.web.captions-15-tracks.multi-audio.2isYuQZMbdU.json': 'OK',
  'player.web.no-captions.iuevw6218F0.json': 'OK',
  'player.web.live-scheduled.N-yVic7BbY0.json': 'VIDEO_UPCOMING',
  'watch-pbj.private.z2jeHsa0UG0.json': 'VIDEO_NOT_FOUND',
  'watch-pbj.non-existent.99999999999.json': 'VIDEO_NOT_FOUND',
  'watch-page.captions.GJLlxj_dtq8.html': 'OK',
  'watch-page.age-restricted.Njp5uhTorCo.html': 'VIDEO_AGE_RESTRICTED',
  'watch-page.age-restricted.vi-VN.CsrfovOPcjk.html': 'VIDEO_AGE_RESTRICTED',
  'watch-page.bot-check.login-required.html': 'EXTRACTION_FAILED',
  'watch-page.video-unavailable.html': 'VIDEO_NOT_FOUND',
  'watch-page.asr-only.no-translation-languages.de-ui.P3pFkriw10Q.html': 'OK',
  'watch-page.unplayable.region-blocked.kZsVStYdmws.html': 'VIDEO_REGION_BLOCKED',
  'watch-page.captions.manual-and-asr.W6NZfCO5SIk.html': 'OK',
  'watch-page.live-captions-renderer-no-tracklist.21X5lGlDOfg.html': 'OK',
  'watch-page.rental.unplayable.SyKPsFRP_Oc.html': 'VIDEO_PAID',
  'watch-page.private.m8uHb5jIGN8.html': 'VIDEO_NOT_FOUND',
  'watch-page.live-recording-unavailable.5YceQ8YqYMc.html': 'VIDEO_UNPLAYABLE',
  'watch-page.captions-13-tracks.QRS8MkLhQmM.html': 'OK',
  'watch-page.captions-40-tracks.2lAe1cqCOXo.html': 'OK',
  'rate-limited.too-many-requests.es.html': 'EXTRACTION_FAILED',
  'consent-page.de.html': 'EXTRACTION_FAILED',
};
const TIMEDTEXT = [
  'timedtext.styled-manual.srv3.sc3-z_2aNX0.xml',
  'timedtext.styled-manual.json3.sc3-z_2aNX0.json',
  'timedtext.asr.legacy-vtt.EXCERPT.vtt',
  'timedtext.srv1.HANDWRITTEN-upstream.xml',
];
const NOT_A_PLAYER_RESPONSE = ['next.web.metadata.M4gD1WSo5mA.json'];

/** Serves one fixture as YouTube's answer and asks our VideoSource for the video. */
async function getVideoFrom(name: string) {
  const body = readShared(name);
  const isPage = name.endsWith('.html');
  const yt = fakeYoutube({ player: () => json(body), watch: () => html(body) });
  const src = createYoutubeSource({
    baseUrl: 'http://127.0.0.1:1',
    fetch: yt.fetch,
    clients: [isPage ? 'WATCH_PAGE' : 'ANDROID'],
  });
  const id = expectationsFor(name).videoDetails.videoId ?? 'AAAAAAAAAAA';
  return src.getVideo(id).then(
    (video) => ({ video, code: 'OK' }),
    (e: { code: string }) => ({ video: undefined, code: e.code }),
  );
}

describe.skipIf(!sharedAvailable)(`recorded YouTube fixtures (${SHARED_DIR})`, () => {
  it('covers every file SOURCES.md lists, and every file in the folder', () => {
    const covered = [...Object.keys(EXPECTED), ...TIMEDTEXT, ...NOT_A_PLAYER_RESPONSE].sort();
    expect(sourcesFiles().sort()).toEqual(covered);
    expect(
      readdirSync(SHARED_DIR)
        .filter((f) => f !== 'SOURCES.md')
        .sort(),
    ).toEqual(covered);
  });

  describe.each(Object.keys(EXPECTED))('%s', (name) => {
    const expected = expectationsFor(name);
    it(`answers ${EXPECTED[name]} with the verified details and tracks`, async () => {
      const { video, code } = await getVideoFrom(name);
      expect(code).toBe(EXPECTED[name]);
      if (!video) return;
      const details = expected.videoDetails;
      const micro = expected.microformat;
      expect(video.info).toMatchObject({
        videoId: details.videoId,
        title: details.title ?? micro.title,
        duration: Number(details.lengthSeconds ?? micro.lengthSeconds),
        channelName: details.author ?? micro.ownerChannelName,
        publishDate: micro.publishDate ?? null,
        ...(details.channelId ? { channelId: details.channelId } : {}),
        ...(details.isLiveContent ? { isLiveContent: details.isLiveContent === 'True' } : {}),
        isLive: details.isLive === 'True',
      });
      expect(
        video.tracks.map(({ lang, name: n, autoGenerated, translatable }) => ({
          lang,
          name: n,
          autoGenerated,
          translatable,
        })),
      ).toEqual(expected.tracks);
      if (expected.defaultCaptionTrackIndex !== undefined) {
        expect(video.tracks.findIndex((t) => t.isDefault)).toBe(expected.defaultCaptionTrackIndex);
      }
    });
  });

  it('the watch-page caption URLs need a PO token, the ANDROID player ones do not', async () => {
    const page = (await getVideoFrom('watch-page.captions.GJLlxj_dtq8.html')).video!;
    const player = (await getVideoFrom('player.captions.GJLlxj_dtq8.json')).video!;
    expect(page.tracks.every((t) => t.ref.includes('exp=xpe'))).toBe(true);
    expect(player.tracks.some((t) => t.ref.includes('exp=xpe'))).toBe(false);
  });

  it('chapters come from the watch page when it has them', async () => {
    const { video } = await getVideoFrom('watch-page.captions.manual-and-asr.W6NZfCO5SIk.html');
    expect(video!.info.chapters.slice(0, 2)).toEqual([
      { title: 'What is JavaScript', start: 0 },
      { title: 'Setting Up the Development Environment', start: 281 },
    ]);
  });

  it('2026 next answers carry chapters as engagement-panel markers (here YouTube’s key moments)', () => {
    expect(findChapters(JSON.parse(readShared('next.web.metadata.M4gD1WSo5mA.json')))).toEqual([
      { title: 'Choreography', start: 525.83 },
      { title: 'What Underlies the Fixation Requirement', start: 560.99 },
      { title: 'Conventional Justification of the Fixation Requirement in Copyright Law', start: 662.76 },
    ]);
  });

  it('without markers, chapters come from the description’s timestamps', async () => {
    const { video } = await getVideoFrom('player.visionos.manual-only.de.ud9d5cMDP_0.json');
    expect(video!.info.chapters).toHaveLength(7);
    expect(video!.info.chapters[0]).toEqual({ title: 'Ein erstaunlich kontroverses Thema', start: 0 });
    expect(video!.info.chapters.at(-1)).toEqual({ title: 'Keksempfehlungen', start: 981 });
    // A description without such lines gives none.
    expect((await getVideoFrom('player.captions.GJLlxj_dtq8.json')).video!.info.chapters).toEqual([]);
  });

  it('a captcha or consent page served as the InnerTube answer is EXTRACTION_FAILED', async () => {
    for (const name of ['rate-limited.too-many-requests.es.html', 'consent-page.de.html']) {
      const yt = fakeYoutube({ player: () => html(readShared(name)) });
      const src = createYoutubeSource({ fetch: yt.fetch, clients: ['ANDROID'] });
      await expect(src.getVideo('GJLlxj_dtq8')).rejects.toMatchObject({ code: 'EXTRACTION_FAILED' });
    }
  });

  it('the /next response is not mistaken for a player response', () => {
    const raw = unwrapPlayerResponse(JSON.parse(readShared('next.web.metadata.M4gD1WSo5mA.json')));
    expect([raw.playabilityStatus, raw.videoDetails]).toEqual([undefined, undefined]);
    expect(classifyPlayability(raw)).toMatchObject({ ok: false });
  });

  describe('frame sources', () => {
    const frameSource = (name: string, width: number, edit: (raw: Record<string, unknown>) => void = () => {}) => {
      const raw = JSON.parse(readShared(name)) as Record<string, unknown>;
      edit(raw);
      const yt = fakeYoutube({ player: () => json(raw) });
      return createYoutubeSource({
        baseUrl: 'http://127.0.0.1:1',
        fetch: yt.fetch,
        clients: ['ANDROID'],
      }).getFrameSource('M4gD1WSo5mA', width);
    };

    it('a plain video-only stream at least as wide as asked, moved onto baseUrl', async () => {
      const frames = await frameSource('player.visionos.captions.manual-and-asr.M4gD1WSo5mA.json', 600);
      expect(frames).toMatchObject({ kind: 'stream', width: 640, height: 360 });
      expect(frames.kind === 'stream' && frames.url).toMatch(/^http:\/\/127\.0\.0\.1:1\/videoplayback\?/);
    });

    it("the storyboard spec's largest level when there is no stream", async () => {
      const frames = await frameSource(
        'player.visionos.captions.manual-and-asr.M4gD1WSo5mA.json',
        600,
        (raw) => delete raw.streamingData,
      );
      expect(frames).toMatchObject({
        kind: 'storyboard',
        thumbWidth: 160,
        thumbHeight: 90,
        count: 146,
        columns: 5,
        rows: 5,
        interval: 5,
      });
      expect(frames.kind === 'storyboard' && frames.sheetUrl(3)).toMatch(
        /^http:\/\/127\.0\.0\.1:1\/sb\/M4gD1WSo5mA\/storyboard3_L2\/M3\.jpg\?sqp=.*&sigh=rs%24AOn4CLDRZamAWNi5n-lx-iRhgpvTK8KR9g$/,
      );
    });

    it('ciphered streams whose player script cannot be had fall back to storyboards', async () => {
      // Only signatureCipher formats; the stand-in serves no player script, so deciphering fails.
      const frames = await frameSource('player.web.no-captions.iuevw6218F0.json', 600);
      expect(frames).toMatchObject({
        kind: 'storyboard',
        thumbWidth: 234,
        thumbHeight: 180,
        count: 143,
        columns: 3,
        rows: 3,
        interval: 2,
      });
    });

    it('neither stream nor storyboard: EXTRACTION_FAILED', async () => {
      const none = frameSource('player.web.no-captions.iuevw6218F0.json', 600, (raw) => {
        delete raw.streamingData;
        delete raw.storyboards;
      });
      await expect(none).rejects.toMatchObject({ code: 'EXTRACTION_FAILED' });
    });
  });

  describe('timedtext', () => {
    it('srv3 and json3 of the same track give identical segments; the out-of-order blank cue is dropped', () => {
      const srv3 = parseTimedTextXml(readShared('timedtext.styled-manual.srv3.sc3-z_2aNX0.xml'));
      const json3 = parseJson3(readShared('timedtext.styled-manual.json3.sc3-z_2aNX0.json'));
      expect(srv3).toEqual(json3);
      expect(json3[0]).toEqual({ start: 0.207, end: 1.976, text: 'Haooo! HimeHina here!' });
      expect(json3.at(-1)).toMatchObject({ start: 247.555, text: 'Aw yeah!' });
      expect(json3).toHaveLength(205); // 206 events, the last (t=1ms) is only a zero-width space
      expect(json3.every((s, i) => s.end > s.start && (i === 0 || json3[i - 1]!.start <= s.start))).toBe(true);
      expect(json3.some((s) => /[\u200b<>]/.test(s.text))).toBe(false);
    });

    it('the legacy VTT excerpt: 4 cues, tags and inline timestamps stripped', () => {
      const cues = parseVtt(readShared('timedtext.asr.legacy-vtt.EXCERPT.vtt'));
      expect(cues.map((c) => c.text)).toEqual([
        'yeah',
        'yeah what',
        "this will happen is I'm telling",
        "this will happen is I'm telling",
      ]);
      expect(cues[0]).toEqual({ start: 286.07, end: 286.47, text: 'yeah' });
      expect(cues[2]).toMatchObject({ start: 304.08, end: 305.069 });
    });

    it('the hand-written srv1: seconds, escaped <i> stripped, empty cue dropped, overlap clipped', () => {
      const cues = parseTimedTextXml(readShared('timedtext.srv1.HANDWRITTEN-upstream.xml'));
      expect(cues).toEqual([
        { start: 0, end: 1.54, text: 'Hey, this is just a test' },
        { start: 1.54, end: 5.7, text: 'this is not the original transcript' },
        { start: 5.7, end: 8.939, text: 'just something shorter, I made up for testing' },
      ]);
    });
  });
});
