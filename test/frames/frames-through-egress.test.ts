// Frames through the egress identity that got the stream URL: googlevideo may bind a URL to the address that asked
// for it, so with a proxy identity ffmpeg reads the stream through that proxy too (by way of the media gateway), and
// googlevideo never sees a request from anywhere else. A loopback HTTP proxy records what comes through it; real
// ffmpeg decodes a generated video served behind it; the player answer is recorded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../support/clients.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { startForwardProxy, type ForwardProxy } from '../support/forward-proxy.ts';
import { cachedTestVideo, secondShown } from '../support/make-video.ts';
import { FRAME_FIXTURES, recordedPlayerRoute, storyboardSheet } from '../support/media-youtube.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { serveFile, startVideoServer, type VideoServer } from '../support/video-server.ts';

const VIDEO = 'Fjg5lYqvzUs'; // recorded answer with plain stream URLs
const CIPHERED = 'iuevw6218F0'; // recorded answer with ciphered streams only: storyboards

describe.skipIf(!sharedAvailable)('frames through a proxy identity', { timeout: 60_000 }, () => {
  let yt: VideoServer;
  let proxy: ForwardProxy;
  let s: TestServer;

  beforeAll(async () => {
    // A short video: the recording proxy reads each answer whole before passing it on.
    const file = await cachedTestVideo({ seconds: 60 });
    const sheet = storyboardSheet();
    yt = await startVideoServer(
      {
        '/youtubei/v1/player': recordedPlayerRoute(FRAME_FIXTURES),
        '/videoplayback': { file },
      },
      (p) =>
        p.startsWith('/sb/')
          ? { handle: (req, res, served) => serveFile(req, res, served, sheet, 'image/jpeg') }
          : undefined,
    );
    proxy = await startForwardProxy();
    s = await startTestServer({
      YOUTUBE_BASE_URL: yt.origin,
      YOUTUBE_PROXY_URLS: proxy.url,
      // The media gateway reads the loopback "googlevideo" only because the operator's network allows it.
      MEDIA_ALLOWED_NETWORKS: '127.0.0.1',
    });
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    await proxy?.close();
    await yt?.close();
  });

  it('every request for the stream, ffmpeg’s included, goes through the proxy that got its URL', async () => {
    const { key } = await s.newKey({ credits: 10 });
    const r = await rest(s.url, 'POST', '/frames', {
      key,
      body: { videoId: VIDEO, t: 7, width: 160, includeBase64: true },
    });
    expect(r.status).toBe(200);
    expect(r.json.frames[0]).toMatchObject({ t: 7, source: 'stream' });
    expect(await secondShown(Buffer.from(r.json.frames[0].base64, 'base64'))).toBe(7);

    const viaProxy = proxy.seen.filter((u) => new URL(u).pathname === '/videoplayback');
    const atGooglevideo = yt.requests.filter((q) => q.path === '/videoplayback');
    // The stream check when the URL was chosen, the grabber's preflight, and ffmpeg's reads (through the gateway).
    expect(viaProxy.length).toBeGreaterThanOrEqual(3);
    expect(atGooglevideo.length).toBe(viaProxy.length);
    // ffmpeg (Lavf) never reached googlevideo itself: it read the gateway, which fetched through the proxy.
    expect(atGooglevideo.filter((q) => q.userAgent?.startsWith('Lavf'))).toEqual([]);
    // The player request that got the URL came through the same proxy.
    expect(proxy.seen.some((u) => new URL(u).pathname === '/youtubei/v1/player')).toBe(true);
    expect(yt.requests.length).toBe(proxy.seen.length);
  });

  it('storyboard sheets come through the same proxy', async () => {
    const { key } = await s.newKey({ credits: 10 });
    const r = await rest(s.url, 'POST', '/frames', { key, body: { videoId: CIPHERED, t: 30, width: 160 } });
    expect(r.status).toBe(200);
    expect(r.json.frames[0]).toMatchObject({ source: 'storyboard' });
    const sheets = yt.requests.filter((q) => q.path.startsWith('/sb/'));
    expect(sheets.length).toBeGreaterThan(0);
    expect(proxy.seen.filter((u) => new URL(u).pathname.startsWith('/sb/')).length).toBe(sheets.length);
  });
});
