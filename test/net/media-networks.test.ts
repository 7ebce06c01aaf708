// Direct media URLs on the operator's own network: refused unless MEDIA_ALLOWED_NETWORKS names it (then read, over
// plain http too, with each redirect checked again); addresses that only look public are refused before any
// connection; and every refusal is the same sentence, whatever the name resolves to.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../support/clients.ts';
import { cachedTestVideo } from '../support/make-video.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { startVideoServer, type VideoServer } from '../support/video-server.ts';

// The video route prefixes why the id is not a YouTube one; the refusal itself is always this sentence.
const REFUSAL = expect.stringMatching(
  /The media URL cannot be fetched: its host is not a public address, or does not resolve$/,
) as unknown as string;
let closed: TestServer;
let open: TestServer;
let files: VideoServer;
beforeAll(async () => {
  const video = await cachedTestVideo({ seconds: 3 });
  files = await startVideoServer({
    '/clip.mp4': { file: video, contentType: 'video/mp4' },
    '/moved.mp4': { redirect: '/clip.mp4' },
    '/to-other': { redirect: 'http://127.0.0.2:9/clip.mp4' },
  });
  [closed, open] = await Promise.all([startTestServer(), startTestServer({ MEDIA_ALLOWED_NETWORKS: '127.0.0.1' })]);
}, 60_000);
afterAll(async () => {
  await closed?.close();
  await open?.close();
  await files?.close();
});

const info = async (s: TestServer, url: string) => {
  const { key } = await s.newKey({ credits: 5 });
  return rest(s.url, 'GET', `/videos/${encodeURIComponent(url)}`, { key });
};

describe('MEDIA_ALLOWED_NETWORKS', () => {
  it('a media server on loopback is refused without it, before any request reaches it', async () => {
    const before = files.requests.length;
    const r = await info(closed, files.url('/clip.mp4').replace('http:', 'https:'));
    expect([r.status, r.json.error]).toEqual([400, { code: 'INVALID_REQUEST', message: REFUSAL }]);
    expect(files.requests.length).toBe(before);
  });

  it('and read with it, over plain http, redirects included', async () => {
    for (const path of ['/clip.mp4', '/moved.mp4']) {
      const r = await info(open, files.url(path));
      expect([path, r.status]).toEqual([path, 200]);
      expect(r.json.duration).toBeCloseTo(3, 0);
    }
  });

  it('covers only what it names: a redirect or a URL to another loopback address is refused', async () => {
    for (const url of [files.url('/to-other'), 'http://127.0.0.2:9/clip.mp4', 'http://[::7f00:1]:9/clip.mp4']) {
      const r = await info(open, url);
      expect([url, r.status, r.json.error]).toEqual([url, 400, { code: 'INVALID_REQUEST', message: REFUSAL }]);
    }
  });
});

describe('a production-composed gateway', () => {
  it.each([
    'https://[::127.0.0.1]/a.mp4',
    'https://[::7f00:1]/a.mp4',
    'https://[::a00:1]/a.mp4',
    'https://[64:ff9b::a00:1]/a.mp4',
    'https://[2002:7f00:1::1]/a.mp4',
    'https://2130706433/a.mp4',
    'https://0x7f.1/a.mp4',
    'https://10.1.2.3/a.mp4',
    'https://localhost/a.mp4',
    'https://no-such-host.invalid/a.mp4',
  ])('refuses %s with the one sentence', async (url) => {
    const r = await info(closed, url);
    expect([r.status, r.json.error]).toEqual([400, { code: 'INVALID_REQUEST', message: REFUSAL }]);
  });
});
