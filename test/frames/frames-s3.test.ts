import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedAvailable } from '../support/fixture-files.ts';
import { mcpClient, rest } from '../support/clients.ts';
import { startMediaYoutube } from '../support/media-youtube.ts';
import { startLoopbackS3, type LoopbackS3 } from '../support/s3-server.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const LONG = 'Fjg5lYqvzUs';

describe.skipIf(!sharedAvailable)('frames stored in S3', () => {
  let yt: Awaited<ReturnType<typeof startMediaYoutube>>;
  let s3: LoopbackS3;
  let s: TestServer;

  beforeAll(async () => {
    yt = await startMediaYoutube();
    s3 = await startLoopbackS3(['subtext-frames']);
    s = await startTestServer({
      YOUTUBE_BASE_URL: yt.origin,
      S3_BUCKET: 'subtext-frames',
      S3_ENDPOINT: s3.endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_PREFIX: 'frames-test/',
    });
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    await s3?.close();
    await yt?.close();
  });

  it('a captured frame lands in the bucket and its URL is a presigned S3 URL serving the same bytes', async () => {
    const { key } = await s.newKey({ credits: 10 });
    const r = await rest(s.url, 'POST', '/frames', {
      key,
      body: { videoId: LONG, t: 5, width: 160, includeBase64: true },
    });
    expect(r.status).toBe(200);
    const [frame] = r.json.frames;
    expect(frame.url.startsWith(`${s3.endpoint}/subtext-frames/frames-test/frame/${LONG}/5000/160.jpg?`)).toBe(true);
    expect(new URL(frame.url).searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    const img = await fetch(frame.url);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await img.arrayBuffer()).equals(Buffer.from(frame.base64, 'base64'))).toBe(true);
    // Nothing in PostgreSQL's blob table: the bytes live in the bucket only.
    const [row] = await s.deps.sql<{ n: number }[]>`select count(*)::int as n from blobs`;
    expect(row!.n).toBe(0);

    // A stored frame is read back from the bucket: the image route and MCP answer the same picture for free.
    const again = await fetch(`${s.url}/api/v1/videos/${LONG}/frame?t=5&width=160`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(again.headers.get('x-credits-charged')).toBe('0');
    expect(Buffer.from(await again.arrayBuffer()).equals(Buffer.from(frame.base64, 'base64'))).toBe(true);
    const mcp = await mcpClient(s.url, key);
    const tool = await mcp.callTool({ name: 'get_video_frame', arguments: { videoId: LONG, t: 5, width: 160 } });
    expect((tool.content as { type: string; data?: string }[])[0]).toMatchObject({ type: 'image', data: frame.base64 });
    await mcp.close();
  });
});
