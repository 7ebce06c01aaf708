// Direct media URLs end to end: a loopback server serves an MP4 (test picture + speech), a WebM of the speech and
// an HLS playlist; the service gives video info from ffprobe, frames from ffmpeg and transcripts by speech-to-text,
// all read through the media gateway. Loopback is allowed only in this composition (an injected address policy and
// plain http); a server with the production gateway refuses the same URLs before fetching anything.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { speechPrice } from '../../src/domain/pricing/prices.ts';
import { mediaIdOf } from '../../src/domain/video/video-ref.ts';
import { createMediaGateway } from '../../src/infra/net/media-gateway.ts';
import { mcpClient, rest, trpcClient } from '../support/clients.ts';
import { startFakeWhisper, type FakeWhisper } from '../support/fake-whisper.ts';
import { jpegSize } from '../../src/infra/ffmpeg/jpeg-size.ts';
import { audioAvailable } from '../support/speech-audio.ts';
import { MEDIA_TITLE, speechMedia, type SpeechMedia } from '../support/speech-media.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { serveFile, startVideoServer, type VideoServer } from '../support/video-server.ts';

if (process.env.CI && !audioAvailable) throw new Error('the shared audio fixtures are needed in CI');

let media: SpeechMedia;
let files: VideoServer;
let whisper: FakeWhisper;
let s: TestServer;
// The "private" target hostile playlists point at: loopback too, but 127.0.0.2, outside what the policy allows.
let forbidden: { origin: string; requests: string[]; server: Server };
// Playlists that try to make ffmpeg open the forbidden target itself, each past a different hole in the rewriting.
const hostile: Record<string, { type: string; body: () => string }> = {
  // An unquoted URI= in #EXT-X-MAP (the init section is opened before the segment).
  'map.m3u8': {
    type: 'application/vnd.apple.mpegurl',
    body: () =>
      `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-MAP:URI=${forbidden.origin}/init.mp4\n#EXTINF:10,\nmissing.ts\n#EXT-X-ENDLIST\n`,
  },
  // An unquoted URI= in #EXT-X-KEY (the key is fetched before the segment).
  'key.m3u8': {
    type: 'application/vnd.apple.mpegurl',
    body: () =>
      `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-KEY:METHOD=AES-128,URI=${forbidden.origin}/key\n#EXTINF:10,\nmissing.ts\n#EXT-X-ENDLIST\n`,
  },
  // A variant playlist served as a segment (type and name say MPEG-TS; ffmpeg parses it by its #EXTM3U).
  'master.m3u8': {
    type: 'application/vnd.apple.mpegurl',
    body: () => '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=64000\nvariant.ts\n',
  },
  'variant.ts': {
    type: 'video/mp2t',
    body: () => `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n${forbidden.origin}/seg.ts\n#EXT-X-ENDLIST\n`,
  },
  // A segment name whose percent-encoding is broken, and a URI split off by a bare CR.
  'badname.m3u8': {
    type: 'application/vnd.apple.mpegurl',
    body: () => `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n${forbidden.origin}/a%ZZ.ts\n#EXT-X-ENDLIST\n`,
  },
  'cr.m3u8': {
    type: 'application/vnd.apple.mpegurl',
    body: () => `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\r${forbidden.origin}/cr.ts\n#EXT-X-ENDLIST\n`,
  },
};
beforeAll(async () => {
  if (!audioAvailable) return;
  media = speechMedia();
  whisper = await startFakeWhisper();
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  forbidden = { origin: `http://127.0.0.2:${(server.address() as AddressInfo).port}`, requests, server };
  files = await startVideoServer(
    {
      '/talk.mp4': { file: media.mp4, contentType: 'video/mp4' },
      '/talk.webm': { file: media.programme.file, contentType: 'application/octet-stream' },
      '/page.html': { file: media.mp4, contentType: 'text/html' },
      '/moved.mp4': { redirect: '/talk.mp4' },
      // 127.0.0.2 is loopback too, but outside what this composition's policy allows.
      '/to-private': { redirect: 'http://127.0.0.2:9/x.mp4' },
      // Broken percent-encoding in the file name.
      '/talk%ZZ.mp4': { file: media.mp4, contentType: 'video/mp4' },
    },
    (path) => {
      if (path.startsWith('/hls/') && /^\/hls\/[a-z0-9]+\.(m3u8|ts)$/.test(path)) {
        return {
          handle: (req, res, served) =>
            serveFile(
              req,
              res,
              served,
              join(media.hlsDir, path.slice(5)),
              path.endsWith('.m3u8') ? 'application/vnd.apple.mpegurl' : 'video/mp2t',
            ),
        };
      }
      const playlist = path.startsWith('/hostile/') ? hostile[path.slice(9)] : undefined;
      return playlist
        ? { handle: (_req, res) => void res.writeHead(200, { 'content-type': playlist.type }).end(playlist.body()) }
        : undefined;
    },
  );
  s = await startTestServer(
    { STT_ENGINE: 'openai-compatible', STT_BASE_URL: whisper.origin, STT_MODEL: 'whisper-test' },
    { mediaGateway: createMediaGateway({ policy: (ip) => ip === '127.0.0.1', allowHttp: true }) },
  );
}, 120_000);
afterAll(async () => {
  await s?.close();
  await files?.close();
  await whisper?.close();
  forbidden?.server.closeAllConnections();
  await new Promise((resolve) => (forbidden ? forbidden.server.close(resolve) : resolve(undefined)));
});

async function finished(key: string, id: string) {
  for (const until = Date.now() + 60_000; ; await new Promise((r) => setTimeout(r, 100))) {
    const r = await rest(s.url, 'GET', `/jobs/${id}`, { key });
    if (r.json.status === 'succeeded' || r.json.status === 'failed') return r.json;
    if (Date.now() > until) throw new Error(`job ${id} still ${r.json.status}`);
  }
}

describe.skipIf(!audioAvailable)('direct media URLs', { timeout: 120_000 }, () => {
  it('video info is what ffprobe says: duration, streams, title tag; the same on REST, tRPC and MCP', async () => {
    const { key, accountId } = await s.newKey({ credits: 5 });
    const url = files.url('/talk.mp4');
    const r = await rest(s.url, 'GET', `/videos/${encodeURIComponent(url)}`, { key });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      videoId: mediaIdOf(url, accountId),
      title: MEDIA_TITLE,
      isLive: false,
      thumbnail: null,
      media: { url, kind: 'file', formatName: expect.stringContaining('mp4') },
    });
    expect(r.json.duration).toBeCloseTo(media.programme.seconds, 0);
    expect(r.json.media.streams).toEqual([
      { index: 0, type: 'video', codec: 'h264', width: 320, height: 180 },
      { index: 1, type: 'audio', codec: 'aac', channels: 1, sampleRate: 48000 },
    ]);
    const t = await trpcClient(s.url, key).videos.info.query({ videoId: url });
    expect(t).toEqual(r.json);
    const client = await mcpClient(s.url, key);
    try {
      const tool: any = await client.callTool({ name: 'get_video_info', arguments: { videoId: url } });
      expect(tool.structuredContent).toEqual(r.json);
      const tracks: any = await client.callTool({
        name: 'list_subtitle_tracks',
        arguments: { videoId: mediaIdOf(url, accountId) },
      });
      expect(tracks.structuredContent.tracks).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('frames by ffmpeg from the file, seeking with ranges through the gateway; charged per frame', async () => {
    const { key, accountId } = await s.newKey({ credits: 5 });
    const before = files.requests.length;
    const r = await rest(s.url, 'POST', '/frames', {
      key,
      body: { url: files.url('/moved.mp4'), timestamps: [2, 20.5], width: 160, includeBase64: true },
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ videoId: mediaIdOf(files.url('/moved.mp4'), accountId), creditsCharged: 2 });
    for (const f of r.json.frames)
      expect(jpegSize(Buffer.from(f.base64, 'base64'))).toEqual({ width: 160, height: 90 });
    // Every byte came from the file server through the gateway's own requests (the redirect followed by us).
    expect(files.requests.slice(before).some((q) => q.path === '/talk.mp4' && q.range)).toBe(true);
    const past = await rest(s.url, 'POST', '/frames', {
      key,
      body: { url: files.url('/talk.mp4'), t: media.programme.seconds + 30 },
    });
    expect(past.status).toBe(400);
    // The image route takes the URL percent-encoded in its path.
    const image = await rest(s.url, 'GET', `/videos/${encodeURIComponent(files.url('/talk.mp4'))}/frame`, {
      key,
      query: { t: '4', width: '320' },
    });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/jpeg');
    expect(image.headers.get('x-credits-charged')).toBe('1');
  });

  it('a transcript by speech-to-text (mode=auto), charged per started minute, stored under the media id; mode=native is 422', async () => {
    const { key, accountId } = await s.newKey({ credits: 10 });
    const url = files.url('/talk.webm');
    const native = await rest(s.url, 'POST', '/subtitles', { key, body: { url, mode: 'native' } });
    expect(native.status).toBe(422);
    expect(native.json.error.code).toBe('NO_SUBTITLES');
    const r = await rest(s.url, 'POST', '/subtitles', { key, body: { url } });
    expect(r.status).toBe(202);
    expect(r.json).toMatchObject({
      videoId: mediaIdOf(url, accountId),
      source: 'speech-to-text',
      estimatedCredits: speechPrice(media.programme.seconds),
    });
    const job = await finished(key, r.json.job.id);
    expect(job).toMatchObject({ status: 'succeeded', creditsCharged: speechPrice(media.programme.seconds) });
    expect(job.result.transcript).toMatchObject({
      videoId: mediaIdOf(url, accountId),
      source: 'speech-to-text',
      lang: 'en',
    });
    expect(job.result.transcript.segments[1]).toEqual({ start: 5, end: 10, text: 'words 1 of the chunk' });
    expect(whisper.requests.at(-1)!.file!.seconds).toBeCloseTo(media.programme.seconds, 0);
    // Stored: the URL or its id answers for free, through tRPC too.
    const again = await trpcClient(s.url, key).subtitles.get.mutate({ videoId: mediaIdOf(url, accountId) });
    expect(again).toMatchObject({ status: 'succeeded', cached: true, creditsCharged: 0 });
  });

  it('an HLS playlist: every segment is fetched through the gateway and transcribed', async () => {
    const { key } = await s.newKey({ credits: 10 });
    const url = files.url('/hls/index.m3u8');
    const info = await rest(s.url, 'GET', `/videos/${encodeURIComponent(url)}`, { key });
    expect(info.json).toMatchObject({ media: { kind: 'hls', formatName: 'hls' } });
    const before = files.requests.length;
    const r = await rest(s.url, 'POST', '/subtitles', { key, body: { url, mode: 'generate' } });
    expect(r.status).toBe(202);
    const job = await finished(key, r.json.job.id);
    expect(job.status).toBe('succeeded');
    expect(job.result.transcript.duration).toBeCloseTo(media.programme.seconds, 0);
    const segments = files.requests.slice(before).filter((q) => q.path.endsWith('.ts'));
    expect(segments.length).toBeGreaterThanOrEqual(Math.floor(media.programme.seconds / 10));
  });

  it('ffmpeg and ffprobe never reached the media server themselves: every request came from the gateway', () => {
    expect(files.requests.length).toBeGreaterThan(10);
    for (const q of files.requests) expect(q.userAgent ?? '').not.toMatch(/Lavf/i);
  });

  it('the byte bound stops a stream mid-way: MEDIA_TOO_LARGE', async () => {
    const decoder = s.deps.speech!.decoder;
    await expect(
      decoder.decode({ url: files.url('/talk.webm'), direct: true }, { maxSeconds: 600, maxBytes: 8192 }),
    ).rejects.toMatchObject({ code: 'MEDIA_TOO_LARGE' });
  });

  it('refused before any work or charge: not media, a redirect to a disallowed address, a scheme other than http(s)', async () => {
    const { key, accountId } = await s.newKey({ credits: 10 });
    const html = await rest(s.url, 'POST', '/subtitles', { key, body: { url: files.url('/page.html') } });
    expect(html.status).toBe(400);
    expect(html.json.error.message).toMatch(/does not serve audio, video or an HLS playlist/);
    const redirected = await rest(s.url, 'GET', `/videos/${encodeURIComponent(files.url('/to-private'))}`, { key });
    expect(redirected.status).toBe(400);
    expect(redirected.json.error.message).toMatch(/its host is not a public address, or does not resolve$/);
    const ftp = await rest(s.url, 'POST', '/frames', { key, body: { url: 'ftp://example.com/a.mp4', t: 1 } });
    expect(ftp.status).toBe(400);
    const charged = await s.deps.sql`select 1 from credit_ledger where account_id = ${accountId} and kind = 'charge'`;
    expect(charged).toHaveLength(0);
  });

  it('a file name with broken percent-encoding (%ZZ) is read like any other: info and frames, not a 500', async () => {
    const { key, accountId } = await s.newKey({ credits: 5 });
    const url = files.url('/talk%ZZ.mp4');
    const info = await rest(s.url, 'GET', `/videos/${encodeURIComponent(url)}`, { key });
    expect(info.status).toBe(200);
    expect(info.json).toMatchObject({ videoId: mediaIdOf(url, accountId), title: MEDIA_TITLE, media: { url } });
    const frames = await rest(s.url, 'POST', '/frames', { key, body: { url, t: 2, width: 160 } });
    expect(frames.status).toBe(200);
    expect(frames.json).toMatchObject({ creditsCharged: 1 });
  });

  it('as the HTTP proxy of ffmpeg, the gateway serves its own URLs only: anything else is refused unfetched', async () => {
    const gateway = createMediaGateway({ policy: (ip) => ip === '127.0.0.1', allowHttp: true });
    try {
      const session = await gateway.open(files.url('/talk.mp4'), { maxBytes: 1 << 20 });
      const proxy = session.ffmpegArgs[session.ffmpegArgs.indexOf('-http_proxy') + 1]!;
      const viaProxy = (target: string) =>
        new Promise<number>((resolve, reject) => {
          const { hostname, port } = new URL(proxy);
          request({ host: hostname, port, path: target }, (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          })
            .on('error', reject)
            .end();
        });
      expect(await viaProxy(`${forbidden.origin}/metadata`)).toBe(403);
      expect(await viaProxy(session.url)).toBe(200);
      expect(forbidden.requests).not.toContain('/metadata');
      expect(session.env.no_proxy ?? session.env.NO_PROXY).toBeUndefined();
      session.close();
    } finally {
      await gateway.stop();
    }
  });

  it.each(['map.m3u8', 'key.m3u8', 'master.m3u8', 'badname.m3u8', 'cr.m3u8'])(
    'a hostile playlist (%s) never gets ffprobe or ffmpeg to the address it names; refused with the error shape, nothing charged',
    async (name) => {
      const { key, accountId } = await s.newKey({ credits: 10 });
      const before = forbidden.requests.length;
      const url = files.url(`/hostile/${name}`);
      const r = await rest(s.url, 'POST', '/subtitles', { key, body: { url, mode: 'generate' } });
      if (r.status === 202) {
        const job = await finished(key, r.json.job.id);
        expect(job).toMatchObject({
          status: 'failed',
          creditsCharged: 0,
          error: { code: expect.any(String), message: expect.any(String) },
        });
      } else {
        expect([400, 422, 502]).toContain(r.status);
        expect(r.json.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
      }
      // ffmpeg itself, past the probe: the decoder fails too.
      await expect(
        s.deps.speech!.decoder.decode({ url, direct: true }, { maxSeconds: 600, maxBytes: 10_000_000 }),
      ).rejects.toMatchObject({ code: expect.any(String) });
      expect(forbidden.requests.slice(before)).toEqual([]);
      const charged = await s.deps.sql`select 1 from credit_ledger where account_id = ${accountId} and kind = 'charge'`;
      expect(charged).toHaveLength(0);
    },
  );
});

describe.skipIf(!audioAvailable)('the production gateway', { timeout: 60_000 }, () => {
  it('refuses loopback, private and plain-http media URLs, and never fetches them', async () => {
    const strict = await startTestServer({});
    try {
      const { key } = await strict.newKey({ credits: 10 });
      const before = files.requests.length;
      for (const url of [
        files.url('/talk.mp4'),
        'https://127.0.0.1/a.mp4',
        'https://10.1.2.3/a.mp4',
        'https://[::1]/a.mp4',
        'https://169.254.169.254/latest',
      ]) {
        const r = await rest(strict.url, 'POST', '/subtitles', { key, body: { url } });
        expect(r.status, url).toBe(400);
        expect(r.json.error.code).toBe('INVALID_REQUEST');
      }
      expect(files.requests.length).toBe(before);
    } finally {
      await strict.close();
    }
  });
});

describe('the gateway on its own', () => {
  it('check(): https only, no credentials, public addresses only', async () => {
    const gateway = createMediaGateway();
    await expect(gateway.check('http://example.com/a.mp3')).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      message: expect.stringMatching(/https only/),
    });
    await expect(gateway.check('https://user:pw@example.com/a.mp3')).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(gateway.check('https://192.168.1.1/a.mp3')).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      message: expect.stringMatching(/public/),
    });
    await expect(gateway.check('https://[::ffff:127.0.0.1]/a.mp3')).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await gateway.stop();
  });
});
