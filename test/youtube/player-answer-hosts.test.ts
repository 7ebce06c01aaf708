// Review (SSRF): caption and stream URLs come from YouTube's player answer, and the adapter fetched whatever host
// they named. Without YOUTUBE_BASE_URL (production) createYoutubeFetch leaves a URL's origin as it is, so a tampered
// or hostile answer (a relay, a proxy in the path, a bug upstream) naming http://127.0.0.1/... or an internal host
// had its caption file downloaded from there, and its stream URL probed (the 403 preflight) from there, through the
// egress identity. Only YouTube's own hosts (youtube.com for timedtext, googlevideo.com for streams) may be asked.
import { describe, expect, it } from 'vitest';
import { createYoutubeSource } from '../../src/infra/youtube/create-youtube-source.ts';
import { fakeYoutube, json } from '../support/fake-youtube.ts';
import { readShared, sharedAvailable } from '../support/fixture-files.ts';

const ID = 'M4gD1WSo5mA';
const INTERNAL = 'http://127.0.0.1:9';

type Answer = {
  captions: { playerCaptionsTracklistRenderer: { captionTracks: { baseUrl: string }[] } };
  streamingData: { adaptiveFormats: { url?: string }[]; formats?: { url?: string }[] };
};

/** The recorded VISIONOS answer with every caption and stream URL moved to `origin`, path and query kept. */
function tampered(origin: string): string {
  const a = JSON.parse(readShared(`player.visionos.captions.manual-and-asr.${ID}.json`)) as Answer;
  const move = (u: string) => {
    const url = new URL(u);
    return `${origin}${url.pathname}${url.search}`;
  };
  for (const t of a.captions.playerCaptionsTracklistRenderer.captionTracks) t.baseUrl = move(t.baseUrl);
  for (const f of [...a.streamingData.adaptiveFormats, ...(a.streamingData.formats ?? [])])
    if (f.url) f.url = move(f.url);
  return JSON.stringify(a);
}

function source() {
  const yt = fakeYoutube({
    player: () => json(tampered(INTERNAL)),
    timedtext: () => json({ events: [{ tStartMs: 0, dDurationMs: 1000, segs: [{ utf8: 'secret' }] }] }),
    other: () => ({ status: 206, body: 'x' }),
  });
  // No baseUrl: production, where URLs keep the host the answer names.
  return { yt, src: createYoutubeSource({ fetch: yt.fetch, clients: ['VISIONOS'] }) };
}

const off = (urls: string[]) => urls.filter((u) => new URL(u).hostname === '127.0.0.1');

describe.skipIf(!sharedAvailable)("a player answer's URLs on another host", () => {
  it('a caption URL naming 127.0.0.1 is not downloaded', async () => {
    const { yt, src } = source();
    const video = await src.getVideo(ID).catch(() => undefined);
    const track = video?.tracks[0];
    if (track) await src.fetchTranscript(track).catch(() => undefined);
    expect(off(yt.urls)).toEqual([]);
  });

  it('a stream URL naming 127.0.0.1 is not requested (not even the 403 preflight)', async () => {
    const { yt, src } = source();
    await src.getFrameSource(ID, 320).catch(() => undefined);
    await src.getAudioSource(ID).catch(() => undefined);
    expect(off(yt.urls)).toEqual([]);
  });
});
