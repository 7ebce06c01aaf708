// Review (article search cursor): forged cursors that pass the shape checks must still be a 400 or a page, never a
// 500: a date PostgreSQL cannot hold (year 0 was an internal error), the largest counts, a NUL in the key's id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../support/clients.ts';
import { storeArticle } from '../support/stores.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

let s: TestServer;
let key: string;
beforeAll(async () => {
  s = await startTestServer();
  key = (await s.newKey({ credits: 1 })).key;
  for (let i = 0; i < 3; i++)
    await storeArticle(s.deps.sql, {
      videoId: `revw${String(i).padStart(7, '0')}`,
      lang: 'en',
      length: 'medium',
      sourceLang: 'en',
      title: `Cursor forgery ${i}`,
      summary: 'About forged cursors.',
      sections: [{ heading: 'One', start: 0, end: 2, text: 'forged cursors' }],
      keyPoints: ['cursors'],
      tags: ['review'],
      category: 'education',
      generator: { kind: 'extractive' },
    });
});
afterAll(async () => s?.close());

const search = (query: Record<string, string>) => rest(s.url, 'GET', '/articles', { key, query });

describe('forged search cursors', () => {
  it('are a 400 or a page, never a 500', async () => {
    for (const query of [{}, { query: 'cursors' }] as Record<string, string>[]) {
      const first = await search({ ...query, limit: '1' });
      expect(first.status).toBe(200);
      const cursor = first.json.nextCursor as string;
      const e = JSON.parse(Buffer.from(cursor, 'base64url').toString());
      const forge = (patch: Record<string, unknown>) =>
        Buffer.from(JSON.stringify({ ...e, ...patch }), 'utf8').toString('base64url');
      for (const patch of [
        { p: { t: 'newest', k: ['0000-01-01T00:00:00.000000Z', 'art_x'] } },
        { p: { t: 'dated', k: ['0000-01-01T00:00:00.000000Z', 'art_x'] } },
        { p: { t: 'older', k: ['9999-12-31T23:59:59.999999Z', 'art_\u0000'] } },
        { p: { t: 'rest', o: 10_000 }, x: false, n: 10_001 },
        { p: { t: 'ranked', o: 10_000 } },
        { p: { t: 'head', o: 10_000 } },
        { o: Number.MAX_SAFE_INTEGER, n: Number.MAX_SAFE_INTEGER, x: true },
      ]) {
        const r = await search({ ...query, limit: '1', cursor: forge(patch) });
        expect([200, 400], `${JSON.stringify(query)} ${JSON.stringify(patch)}: ${r.text.slice(0, 200)}`).toContain(
          r.status,
        );
      }
    }
  });
});
