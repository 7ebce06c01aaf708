// The per-key limit is exact under real concurrency, on one instance and across instances sharing a database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/databases.ts';
import { expectErrorBody } from '../support/security-checks.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { revokeApiKey } from '../support/stores.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let a: TestServer;
let b: TestServer;
beforeAll(async () => {
  database = await createTestDatabase();
  [a, b] = await Promise.all([startTestServer({}, {}, { database }), startTestServer({}, {}, { database })]);
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await database?.drop();
});

async function burst(urls: string[], key: string) {
  const res = await Promise.all(
    urls.map(async (base) => {
      const r = await fetch(`${base}/api/v1/credits`, { headers: { authorization: `Bearer ${key}` } });
      return { status: r.status, headers: r.headers, json: await r.json() };
    }),
  );
  return res;
}

/**
 * Fires the burst with a fresh key until it lands inside one rate-limit window: a burst that straddles a minute
 * boundary is counted in two windows, legitimately letting more through. The burst takes well under a second,
 * so a second attempt never straddles.
 */
async function burstInOneWindow(urls: string[], server: TestServer) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const { key, keyId } = await server.newKey();
    const results = await burst(urls, key);
    const windows = await server.deps.sql`select count from rate_counters where key_id = ${keyId}`;
    if (windows.length === 1) return { results, counted: windows[0]!.count as number };
  }
  throw new Error('three bursts in a row straddled a minute boundary');
}

function expectExactly60(results: Awaited<ReturnType<typeof burst>>) {
  // On a failure, what the others answered (a 5xx under load reads differently from a miscount).
  const tally: Record<string, number> = {};
  for (const r of results) {
    const answer = r.status === 200 ? '200' : `${r.status} ${r.json?.error?.code}`;
    tally[answer] = (tally[answer] ?? 0) + 1;
  }
  const ok = results.filter((r) => r.status === 200);
  const limited = results.filter((r) => r.status === 429);
  expect(ok, JSON.stringify(tally)).toHaveLength(60);
  expect(limited, JSON.stringify(tally)).toHaveLength(results.length - 60);
  for (const r of limited) {
    expectErrorBody(r.json, 'RATE_LIMITED');
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(r.headers.get('ratelimit-remaining')).toBe('0');
  }
  // Each success saw a distinct count: remaining runs 59..0 with no duplicates.
  const remaining = ok.map((r) => Number(r.headers.get('ratelimit-remaining'))).sort((x, y) => x - y);
  expect(remaining).toEqual(Array.from({ length: 60 }, (_, i) => i));
}

describe('rate limit under concurrency', () => {
  it('100 simultaneous requests on a fresh key with the default limit of 60: exactly 60 pass, 40 get 429', async () => {
    const { results, counted } = await burstInOneWindow(Array(100).fill(a.url), a);
    expectExactly60(results);
    expect(counted).toBe(100);
  });

  it('the same across two instances sharing one database', async () => {
    const urls = Array.from({ length: 100 }, (_, i) => (i % 2 ? a.url : b.url));
    const { results, counted } = await burstInOneWindow(urls, a);
    expectExactly60(results);
    expect(counted).toBe(100);
  });

  it('a revoked key is refused at once by the other instance too', async () => {
    const { key, keyId, accountId } = await a.newKey();
    expect((await burst([a.url, b.url], key)).map((r) => r.status)).toEqual([200, 200]);
    await revokeApiKey(a.deps.sql, accountId, keyId);
    expect((await burst([a.url, b.url], key)).map((r) => r.status)).toEqual([401, 401]);
  });
});
