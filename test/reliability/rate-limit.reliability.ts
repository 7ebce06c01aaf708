// The per-key limit is exact across two service instances sharing one database, under a burst much larger than it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { call, isErrorShape, note, relDatabase } from './support.ts';

describe('rate limit across two instances', () => {
  let db: Awaited<ReturnType<typeof relDatabase>>;
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    db = await relDatabase();
    [a, b] = await Promise.all([startTestServer({}, {}, { database: db }), startTestServer({}, {}, { database: db })]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await db?.drop();
  });

  it('400 requests split over two instances with a limit of 37: exactly 37 pass, in one window', async () => {
    const LIMIT = 37;
    const N = 400;
    // A burst that straddles a minute boundary is legitimately counted in two windows: retry with a fresh key.
    for (let attempt = 0; attempt < 3; attempt++) {
      const { key, keyId } = await a.newKey({ rateLimit: LIMIT });
      const results = await Promise.all(
        Array.from({ length: N }, (_, i) => call(i % 2 ? a.url : b.url, 'GET', '/api/v1/credits', { key })),
      );
      const windows = await a.deps.sql<{ count: number }[]>`select count from rate_counters where key_id = ${keyId}`;
      if (windows.length !== 1) continue;
      const ok = results.filter((r) => r.status === 200);
      const limited = results.filter((r) => r.status === 429);
      expect(ok).toHaveLength(LIMIT);
      expect(limited).toHaveLength(N - LIMIT);
      for (const r of limited) expect(isErrorShape(r.json) && r.json.error.code === 'RATE_LIMITED').toBe(true);
      expect(windows[0]!.count).toBe(N);
      const remaining = ok.map((r) => Number(r.headers.get('ratelimit-remaining'))).sort((x, y) => x - y);
      expect(remaining).toEqual(Array.from({ length: LIMIT }, (_, i) => i));
      const perInstance = [a.url, b.url].map(
        (_u, idx) => ok.filter((_, j) => results.indexOf(ok[j]!) % 2 === (idx === 0 ? 1 : 0)).length,
      );
      note(
        '2. Rate limit across instances',
        `${N} simultaneous GET /api/v1/credits alternating between two service instances on one database, key limit ${LIMIT}/min: exactly ${ok.length} answered 200 (${perInstance.join(' + ')} per instance), ${limited.length} answered 429 RATE_LIMITED in the spec shape; the shared counter reads ${windows[0]!.count}; RateLimit-Remaining over the successes is exactly ${LIMIT - 1}..0 with no duplicate.`,
      );
      return;
    }
    throw new Error('three bursts straddled a minute boundary');
  });
});
