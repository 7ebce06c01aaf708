// What the loopback YouTube answers in the subtitles tests: each recorded fixture (shared set, see SOURCES.md) is
// served for its own video id; fixtures without an id (bot check, captcha, consent, "unavailable") get a made-up
// 11-character one. Nothing is copied into the repo: files are read from the shared folder at run time.
import { html, json, type FakeAnswer, type FakeRoutes } from '../support/fake-youtube.ts';
import { readOwn, readShared } from '../support/fixture-files.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { startLoopbackYoutube, type LoopbackYoutube } from '../support/loopback-youtube.ts';

export const ID = {
  captions9: 'GJLlxj_dtq8', // 9 tracks, default = manual en (defaultCaptionTrackIndex 2)
  manualAndAsr: 'F1xioXWb8CY', // manual en + ASR en
  manualAndAsrVisionos: 'M4gD1WSo5mA',
  tracks19: 'kX3nB4PpJko',
  tracks36: '3sbYbckT1VY', // ASR en + manual en-US (default), pt-BR, es-419, no plain pt/es
  web15: '2isYuQZMbdU', // WEB answer: microformat with publishDate
  asrOnlyFr: 'cJ9to6EmElQ',
  manualOnlyDe: 'ud9d5cMDP_0',
  clientSpecific: 'it3OtbTxQk0', // unplayable for VISIONOS (and every client but ANDROID here), playable for ANDROID
  noCaptions: 'dsMFmonKDD4',
  noCaptionsLiveReplay: 'Fjg5lYqvzUs',
  liveNow: 'X4VbdwhkE10',
  upcoming: 'N-yVic7BbY0',
  ageRestricted: 'Njp5uhTorCo',
  membersOnly: 'ayI2iBwGdxw',
  musicPremium: 'sMJ8bRN2dak',
  regionBlocked: '_PL2HJKxnOM',
  private: 'z2jeHsa0UG0',
  nonexistent: '99999999999',
  nonexistentEmpty: 'NoSuchVideo',
  unavailable: 'Unavailable',
  botCheck: 'BotCheck000',
  rateLimited: 'RateLimited',
  consent: 'ConsentPage',
  own: 'OwnVideo001', // test/fixtures/youtube-own
} as const;

const PLAYER: Record<string, string> = {
  [ID.captions9]: 'player.captions.GJLlxj_dtq8.json',
  [ID.manualAndAsr]: 'player.captions.manual-and-asr.F1xioXWb8CY.json',
  [ID.manualAndAsrVisionos]: 'player.visionos.captions.manual-and-asr.M4gD1WSo5mA.json',
  [ID.tracks19]: 'player.visionos.captions-19-tracks.multi-audio.kX3nB4PpJko.json',
  [ID.tracks36]: 'player.visionos.captions-36-tracks.3sbYbckT1VY.json',
  [ID.web15]: 'player.web.captions-15-tracks.multi-audio.2isYuQZMbdU.json',
  [ID.asrOnlyFr]: 'player.visionos.asr-only.fr.cJ9to6EmElQ.json',
  [ID.manualOnlyDe]: 'player.visionos.manual-only.de.ud9d5cMDP_0.json',
  [ID.noCaptions]: 'player.no-captions.dsMFmonKDD4.json',
  [ID.noCaptionsLiveReplay]: 'player.no-captions.live-replay.Fjg5lYqvzUs.json',
  [ID.liveNow]: 'player.visionos.live-no-captions.X4VbdwhkE10.json',
  [ID.upcoming]: 'player.web.live-scheduled.N-yVic7BbY0.json',
  [ID.ageRestricted]: 'player.age-restricted.Njp5uhTorCo.json',
  [ID.membersOnly]: 'reel-item-watch.android.unplayable.members-only.ayI2iBwGdxw.json',
  [ID.musicPremium]: 'reel-item-watch.android.unplayable.music-premium.sMJ8bRN2dak.json',
  [ID.regionBlocked]: 'reel-item-watch.android.unplayable.region-blocked._PL2HJKxnOM.json',
  [ID.private]: 'watch-pbj.private.z2jeHsa0UG0.json',
  [ID.nonexistent]: 'watch-pbj.non-existent.99999999999.json',
  [ID.nonexistentEmpty]: 'reel-item-watch.android.nonexistent.empty-object.json',
  [ID.unavailable]: 'player.video-unavailable.json',
  [ID.botCheck]: 'player.bot-check.login-required.json',
};

/** HTML pages YouTube serves instead of an answer: to every InnerTube client, and as the watch page. */
const PAGES: Record<string, { file: string; status: number }> = {
  [ID.rateLimited]: { file: 'rate-limited.too-many-requests.es.html', status: 429 },
  [ID.consent]: { file: 'consent-page.de.html', status: 200 },
};
const WATCH_PAGES: Record<string, { file: string; status: number }> = {
  ...PAGES,
  // The bot check: every client's JSON says "not a bot" (PLAYER), and so does the watch page.
  [ID.botCheck]: { file: 'watch-page.bot-check.login-required.html', status: 200 },
};

/** Caption files parsed by the service: segments as the service must answer them. */
export const STYLED_SEGMENTS = {
  count: 205,
  first: { start: 0.207, end: 1.976, text: 'Haooo! HimeHina here!' },
  last: { start: 247.555, end: 249.288, text: 'Aw yeah!' },
};
export const OWN_MANUAL_SEGMENTS = [
  { start: 0.5, end: 0.9, text: 'early' },
  { start: 1, end: 2.5, text: 'first words' },
  { start: 3, end: 4, text: 'second line ☺' },
];

const cache = new Map<string, string>();
const shared = (name: string) => {
  if (!cache.has(name)) cache.set(name, readShared(name));
  return cache.get(name)!;
};

export function recordedRoutes(): FakeRoutes {
  return {
    player(client, videoId): FakeAnswer {
      const page = PAGES[videoId];
      if (page) return { status: page.status, body: shared(page.file), contentType: 'text/html' };
      if (videoId === ID.own) return json(readOwn('player.own.captions.json'));
      // The same video as two recorded clients saw it: refused for VISIONOS (and so here for every other client), served for ANDROID.
      if (videoId === ID.clientSpecific) {
        return json(
          shared(
            client === 'ANDROID'
              ? 'reel-item-watch.android.captions.asr-only.it3OtbTxQk0.json'
              : 'player.visionos.unplayable-for-client.it3OtbTxQk0.json',
          ),
        );
      }
      const file = PLAYER[videoId];
      return file ? json(shared(file)) : { status: 404, body: 'no such fixture' };
    },
    watch(url) {
      const page = WATCH_PAGES[url.searchParams.get('v') ?? ''];
      return page ? html(shared(page.file), page.status) : html('<html><body>no fixture</body></html>', 404);
    },
    timedtext(url) {
      const videoId = url.searchParams.get('v');
      if (videoId === ID.own) {
        return url.searchParams.get('kind') === 'asr'
          ? json(readOwn('timedtext.own.asr.json3.json'))
          : { body: readOwn('timedtext.own.srv3.xml'), contentType: 'text/xml' };
      }
      // The only recorded json3 is sc3-z_2aNX0's styled manual track; we answer it for every recorded player's
      // caption track (any track of any video), since no recorded download exists for those tracks. The parser
      // does not care whose words they are, and the tests check these segments, not the video's own.
      return PLAYER[videoId ?? ''] || videoId === ID.clientSpecific
        ? json(shared('timedtext.styled-manual.json3.sc3-z_2aNX0.json'))
        : { status: 404, body: '' };
    },
  };
}

export interface Harness {
  s: TestServer;
  yt: LoopbackYoutube;
  close(): Promise<void>;
}

/** The service with every YouTube request going to a loopback server that replays the recorded fixtures. */
export async function startRecordedHarness(env: Record<string, string> = {}): Promise<Harness> {
  const yt = await startLoopbackYoutube(recordedRoutes());
  const s = await startTestServer({ YOUTUBE_BASE_URL: yt.origin, ...env });
  return {
    s,
    yt,
    async close() {
      await s.close();
      await yt.close();
    },
  };
}

/** The spendable balance of a key, read through REST like a client would. */
export async function balanceOf(s: TestServer, key: string): Promise<number> {
  const r = await fetch(`${s.url}/api/v1/credits`, { headers: { authorization: `Bearer ${key}` } });
  return ((await r.json()) as { balance: number }).balance;
}

/** Polls a condition we cannot be told about (a database row appearing), instead of sleeping a fixed time. */
export async function pollUntil(
  check: () => Promise<boolean> | boolean,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
