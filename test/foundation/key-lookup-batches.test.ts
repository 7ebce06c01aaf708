// Concurrent key lookups share statements (group commit), yet each request is answered as if it ran alone, in
// arrival order: its own window count, nothing counted for unknown or revoked keys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Sql } from '../../db/client.ts';
import { hashApiKey } from '../../src/domain/keys/api-key.ts';
import { windowOf } from '../../src/domain/rate-limit/rate-limit.ts';
import { createTestDatabase } from '../support/databases.ts';
import { createApiKey, ensureAccount, revokeApiKey, storesOf } from '../support/stores.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: Sql;
beforeAll(async () => {
  database = await createTestDatabase();
  sql = connect(database.url, { max: 4 }).sql;
});
afterAll(async () => {
  await sql?.end();
  await database?.drop();
});

let n = 0;
async function newKey(rateLimit?: number) {
  const { id: accountId } = await ensureAccount(sql, `batch${++n}@example.com`);
  const created = await createApiKey(sql, { accountId, name: 'k', rateLimit });
  return { ...created, accountId, hash: hashApiKey(created.key) };
}
const counterOf = async (keyId: string) =>
  (await sql`select coalesce(sum(count), 0)::int as c from rate_counters where key_id = ${keyId}`)[0]!.c as number;

describe('batched key lookups', () => {
  it('answers each of many simultaneous lookups with its own count, in arrival order, across keys', async () => {
    const a = await newKey(5);
    const b = await newKey();
    const { start } = windowOf(Date.now());
    const lookups = storesOf(sql).apiKeys;
    // Arrival order: a(1) b(1) a(3) a(0) unknown b(1) a(1), then a burst of 20 more on a.
    const plan: [string, number][] = [
      [a.hash, 1],
      [b.hash, 1],
      [a.hash, 3],
      [a.hash, 0],
      [hashApiKey('sk_unknown'), 1],
      [b.hash, 1],
      [a.hash, 1],
    ];
    for (let i = 0; i < 20; i++) plan.push([a.hash, 1]);
    const found = await Promise.all(plan.map(([hash, count]) => lookups.findCallerAndCount(hash, start, count)));

    expect(found.map((f) => (f ? f.count : 'none'))).toEqual([
      1,
      1,
      4,
      null,
      'none',
      2,
      5,
      ...Array.from({ length: 20 }, (_, i) => 6 + i),
    ]);
    expect(found[0]!.caller).toEqual({ accountId: a.accountId, keyId: a.id, rateLimit: 5 });
    expect(found[1]!.caller.keyId).toBe(b.id);
    expect(await counterOf(a.id)).toBe(25);
    expect(await counterOf(b.id)).toBe(2);
  });

  it('refuses a revoked key in the very next lookup, batched or not, and counts nothing for it', async () => {
    const a = await newKey();
    const other = await newKey();
    const { start } = windowOf(Date.now());
    const lookups = storesOf(sql).apiKeys;
    expect((await lookups.findCallerAndCount(a.hash, start, 1))?.count).toBe(1);
    await revokeApiKey(sql, a.accountId, a.id);
    const after = await Promise.all([a.hash, other.hash, a.hash].map((h) => lookups.findCallerAndCount(h, start, 1)));
    expect(after.map((f) => (f ? f.count : 'none'))).toEqual(['none', 1, 'none']);
    expect(await counterOf(a.id)).toBe(1);
  });

  it('counts lookups from two windows in their own windows', async () => {
    const a = await newKey();
    const now = Date.now();
    const lookups = storesOf(sql).apiKeys;
    const [w1, w2] = [windowOf(now - 60_000).start, windowOf(now).start];
    const found = await Promise.all([w1, w2, w1, w2, w2].map((w) => lookups.findCallerAndCount(a.hash, w, 1)));
    expect(found.map((f) => f?.count)).toEqual([1, 1, 2, 2, 3]);
  });
});
