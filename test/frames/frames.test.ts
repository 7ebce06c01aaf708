import { statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedAvailable } from '../support/fixture-files.ts';
import { mcpClient, mcpError, rest } from '../support/clients.ts';
import { secondShown } from '../support/make-video.ts';
import { startMediaYoutube } from '../support/media-youtube.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const LONG = 'Fjg5lYqvzUs';
const CIPHERED = 'iuevw6218F0';

describe.skipIf(!sharedAvailable)('frames through REST and MCP', () => {
  let yt: Awaited<ReturnType<typeof startMediaYoutube>>;
  let s: TestServer;
  const ledger = async (accountId: string) =>
    (
      await s.deps.sql<
        { sum: number }[]
      >`select coalesce(sum(delta), 0)::int as sum from credit_ledger where account_id = ${accountId} and kind <> 'grant'`
    )[0]!.sum;
  const videoRequests = () => yt.requests.filter((r) => r.path === '/videoplayback');

  beforeAll(async () => {
    yt = await startMediaYoutube();
    s = await startTestServer({ YOUTUBE_BASE_URL: yt.origin, FRAME_CONCURRENCY: '2' });
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    await yt?.close();
  });

  it('captures the picture shown at t, at the asked width, and charges 1', async () => {
    const { key, accountId } = await s.newKey({ credits: 10 });
    const r = await rest(s.url, 'POST', '/frames', {
      key,
      body: { videoId: LONG, t: 7, width: 320, includeBase64: true },
    });
    expect(r.status).toBe(200);
    const [frame] = r.json.frames;
    expect(frame).toMatchObject({
      t: 7,
      width: 320,
      height: 180,
      mimeType: 'image/jpeg',
      source: 'stream',
      cached: false,
    });
    expect(r.json.creditsCharged).toBe(1);
    expect(r.json.failed).toEqual([]);
    const bytes = Buffer.from(frame.base64, 'base64');
    expect(await secondShown(bytes)).toBe(7);
    // The signed URL serves the same bytes to a client with no headers at all.
    const img = await fetch(frame.url);
    expect(img.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await img.arrayBuffer()).equals(bytes)).toBe(true);
    expect(await ledger(accountId)).toBe(-1);
  });

  it('seeks late without reading the file: 2:59:00 reads a small fraction', async () => {
    const { key } = await s.newKey({ credits: 10 });
    const before = yt.bytesSent();
    const r = await rest(s.url, 'POST', '/frames', {
      key,
      body: { videoId: LONG, t: 10_740, width: 160, includeBase64: true },
    });
    expect(r.status).toBe(200);
    expect(await secondShown(Buffer.from(r.json.frames[0].base64, 'base64'))).toBe(10_740 % 4096);
    expect(yt.bytesSent() - before).toBeLessThan(statSync(yt.videoFile).size * 0.25);
  });

  it('a stored frame is free and opens no stream', async () => {
    const { key } = await s.newKey({ credits: 10 });
    await rest(s.url, 'POST', '/frames', { key, body: { videoId: LONG, t: 11, width: 200 } });
    const opened = videoRequests().length;
    const again = await rest(s.url, 'POST', '/frames', {
      key,
      body: { url: `https://youtu.be/${LONG}?t=11`, t: 11, width: 200 },
    });
    expect(again.json.creditsCharged).toBe(0);
    expect(again.json.frames[0].cached).toBe(true);
    expect(videoRequests().length).toBe(opened);
  });

  it('several timestamps in one request, in order, 1 credit each', async () => {
    const { key, accountId } = await s.newKey({ credits: 10 });
    const r = await rest(s.url, 'POST', '/frames', {
      key,
      body: { videoId: LONG, timestamps: [21, 22, 23], width: 160, includeBase64: true },
    });
    expect(r.status).toBe(200);
    expect(r.json.frames.map((f: { t: number }) => f.t)).toEqual([21, 22, 23]);
    const seconds = await Promise.all(
      r.json.frames.map((f: { base64: string }) => secondShown(Buffer.from(f.base64, 'base64'))),
    );
    expect(seconds).toEqual([21, 22, 23]);
    expect(r.json.creditsCharged).toBe(3);
    expect(await ledger(accountId)).toBe(-3);
  });

  it('402 up front when the new frames cannot all be afforded, capturing nothing', async () => {
    const { key, accountId } = await s.newKey({ credits: 2 });
    const opened = videoRequests().length;
    const r = await rest(s.url, 'POST', '/frames', {
      key,
      body: { videoId: LONG, timestamps: [31, 32, 33], width: 160 },
    });
    expect(r.status).toBe(402);
    expect(r.json.error.code).toBe('INSUFFICIENT_CREDITS');
    expect(videoRequests().length).toBe(opened);
    expect(await ledger(accountId)).toBe(0);
  });

  it('GET /videos/{id}/frame answers the JPEG itself', async () => {
    const { key } = await s.newKey({ credits: 10 });
    const res = await fetch(`${s.url}/api/v1/videos/${LONG}/frame?t=41&width=160`, { headers: { 'x-api-key': key } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('x-credits-charged')).toBe('1');
    expect(res.headers.get('ratelimit-limit')).toBe('60');
    expect(await secondShown(Buffer.from(await res.arrayBuffer()))).toBe(41);
    const bad = await fetch(`${s.url}/api/v1/videos/${LONG}/frame?t=abc`, { headers: { 'x-api-key': key } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatchObject({ code: 'INVALID_REQUEST', message: expect.stringContaining('t') });
  });

  it('MCP get_video_frame returns an image content block', async () => {
    const { key } = await s.newKey({ credits: 10 });
    const client = await mcpClient(s.url, key);
    const result: any = await client.callTool({
      name: 'get_video_frame',
      arguments: { videoId: LONG, t: 53, width: 320 },
    });
    expect(result.isError).toBeFalsy();
    const image = result.content.find((c: { type: string }) => c.type === 'image');
    expect(image.mimeType).toBe('image/jpeg');
    expect(await secondShown(Buffer.from(image.data, 'base64'))).toBe(53);
    expect(result.content.find((c: { type: string }) => c.type === 'text').text).toContain('1 credit charged');
    const past: any = await client.callTool({ name: 'get_video_frame', arguments: { videoId: LONG, t: 99_999 } });
    expect(mcpError(past)?.code).toBe('INVALID_REQUEST');
    await client.close();
  });

  it('falls back to storyboards when no stream can be had, and says so', async () => {
    const { key } = await s.newKey({ credits: 10 });
    const r = await rest(s.url, 'POST', '/frames', { key, body: { videoId: CIPHERED, t: 30, width: 640 } });
    expect(r.status).toBe(200);
    expect(r.json.frames[0]).toMatchObject({ source: 'storyboard', width: 234, height: 180 });
    expect(r.json.creditsCharged).toBe(1);
  });

  describe('bad input is 400 naming the field, and free', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['t past the end', { videoId: LONG, t: 30_000 }, 't'],
      ['negative t', { videoId: LONG, t: -1 }, 't'],
      ['t as text', { videoId: LONG, t: 'soon' }, 't'],
      ['width too small', { videoId: LONG, t: 1, width: 10 }, 'width'],
      ['width too large', { videoId: LONG, t: 1, width: 5000 }, 'width'],
      ['too many timestamps', { videoId: LONG, timestamps: Array.from({ length: 21 }, (_, i) => i) }, 'timestamps'],
      ['both t and timestamps', { videoId: LONG, t: 1, timestamps: [2] }, 'timestamps'],
      ['neither t nor timestamps', { videoId: LONG }, 't'],
      ['not a YouTube url', { url: 'https://example.com/watch?v=abcdefghijk', t: 1 }, 'YouTube'],
    ];
    it.each(cases)('%s', async (_name, body, field) => {
      const { key, accountId } = await s.newKey({ credits: 5 });
      const r = await rest(s.url, 'POST', '/frames', { key, body });
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe('INVALID_REQUEST');
      expect(r.json.error.message).toContain(field);
      expect(await ledger(accountId)).toBe(0);
    });
  });

  it('a tampered or expired frame URL is refused', async () => {
    const { key } = await s.newKey({ credits: 10 });
    const r = await rest(s.url, 'POST', '/frames', { key, body: { videoId: LONG, t: 61, width: 160 } });
    const url = new URL(r.json.frames[0].url);
    const sig = url.searchParams.get('sig')!;
    // A different first character, whatever the signature starts with.
    url.searchParams.set('sig', (sig[0] === 'x' ? 'y' : 'x') + sig.slice(1));
    expect((await fetch(url)).status).toBe(403);
    url.searchParams.set('exp', '1000');
    expect((await fetch(url)).status).toBe(403);
  });
});

describe('frames never open what they should not', () => {
  let s: TestServer;
  const opened: string[] = [];
  beforeAll(async () => {
    const meta = {
      info: {
        videoId: 'dQw4w9WgXcQ',
        title: 't',
        duration: 100,
        thumbnail: null,
        thumbnails: [],
        publishDate: null,
        channelId: null,
        channelName: null,
        viewCount: null,
        isLive: false,
        isLiveContent: false,
        description: '',
        chapters: [],
      },
      tracks: [],
    };
    const urls = [
      'file:///etc/passwd',
      'concat:/etc/passwd|/etc/hosts',
      'http://169.254.169.254/latest/meta-data',
      'https://evil.example.com/videoplayback',
    ];
    let i = 0;
    s = await startTestServer(
      {},
      {
        youtube: {
          getVideo: async () => meta,
          fetchTranscript: async () => [],
          getFrameSource: async () => {
            const url = urls[i++ % urls.length]!;
            opened.push(url);
            return { kind: 'stream', url, width: 640, height: 360 };
          },
        },
      },
    );
  });
  afterAll(() => s?.close());

  it('refuses local files, other protocols and other hosts with FRAME_FAILED, charging nothing', async () => {
    const { key, accountId } = await s.newKey({ credits: 10 });
    for (let n = 0; n < 4; n++) {
      const r = await rest(s.url, 'POST', '/frames', { key, body: { videoId: 'dQw4w9WgXcQ', t: n + 1 } });
      expect(r.status).toBe(502);
      expect(r.json.error.code).toBe('FRAME_FAILED');
      expect(r.json.error.message).not.toContain('passwd');
    }
    expect(opened.length).toBeGreaterThanOrEqual(4);
    const [row] = await s.deps.sql<
      { n: number }[]
    >`select count(*)::int as n from credit_ledger where account_id = ${accountId} and kind = 'charge'`;
    expect(row!.n).toBe(0);
  });
});
