// Review (MCP resources): an article made from a direct media URL is its account's alone. Read as
// subtext://articles/{id} by another account it must be not found, exactly as an id nobody made; and search (REST)
// must not list it to anyone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDirectMedia } from '../../src/infra/media/with-direct-media.ts';
import { rest } from '../support/clients.ts';
import { fakeVideoSource } from '../support/fake-video-source.ts';
import { cachedTestVideo } from '../support/make-video.ts';
import { storeArticle } from '../support/stores.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { startVideoServer, type VideoServer } from '../support/video-server.ts';
import { clientAt, rejection } from '../mcp/mcp-clients.ts';

let s: TestServer;
let files: VideoServer;
let owner: { key: string };
let other: { key: string };
let articleId: string;

beforeAll(async () => {
  const video = await cachedTestVideo({ seconds: 3 });
  files = await startVideoServer({ '/private.mp4': { file: video, contentType: 'video/mp4' } });
  s = await startTestServer({ MEDIA_ALLOWED_NETWORKS: '127.0.0.1' });
  s.deps.youtube = withDirectMedia(fakeVideoSource(), { prober: s.deps.media, videos: s.deps.videos });
  owner = await s.newKey({ credits: 5 });
  other = await s.newKey({ credits: 5 });
  const r = await rest(s.url, 'GET', `/videos/${encodeURIComponent(files.url('/private.mp4'))}`, { key: owner.key });
  expect(r.status, r.text).toBe(200);
  articleId = (
    await storeArticle(s.deps.sql, {
      videoId: r.json.videoId,
      lang: 'en',
      length: 'medium',
      sourceLang: 'en',
      title: 'Quarterly board minutes',
      summary: 'Confidential.',
      sections: [{ heading: 'Budget', start: 0, end: 2, text: 'the confidential budget' }],
      keyPoints: ['budget'],
      tags: ['board'],
      category: 'business',
      generator: { kind: 'extractive' },
    })
  ).id;
}, 60_000);
afterAll(async () => {
  await s?.close();
  await files?.close();
});

describe('a media article as a resource', () => {
  it('reads for its owner, is not found for another account, and is in nobody’s search', async () => {
    const a = await clientAt(s.url, owner.key, '2026-07-28');
    const b = await clientAt(s.url, other.key, '2026-07-28');
    const uri = `subtext://articles/${articleId}`;
    const mine = await a.readResource({ uri });
    expect((mine.contents[0] as { text: string }).text).toContain('Quarterly board minutes');
    const theirs = await rejection(b.readResource({ uri }));
    const nobody = await rejection(b.readResource({ uri: 'subtext://articles/art_00000000000000000000000000' }));
    expect(theirs.code).toBe(nobody.code);
    expect(theirs.message).not.toContain('Quarterly');
    for (const key of [owner.key, other.key]) {
      const found = await rest(s.url, 'GET', '/articles', { key, query: { query: 'confidential budget' } });
      expect(found.json.results.map((h: { id: string }) => h.id)).not.toContain(articleId);
    }
    await a.close();
    await b.close();
  });
});
