// API keys (stored by hash) and their per-minute request counters.
import type { Sql } from '../../../db/client.ts';
import type { ApiKeyStore } from '../../domain/keys/api-key-store.ts';
import { FailedInBatch, groupCommit } from './group-commit.ts';
import { countRequests } from './rate-counters.ts';

export function createApiKeyStore(sql: Sql): ApiKeyStore {
  const lookups = groupCommit((batch: Lookup[]) => findCallersAndCount(sql, batch));
  return {
    async insert(k) {
      await sql`
        insert into api_keys (id, account_id, name, prefix, hash, expires_at, rate_limit_per_minute)
        values (${k.id}, ${k.accountId}, ${k.name}, ${k.prefix}, ${k.hash}, ${k.expiresAt?.toISOString() ?? null}::timestamptz, ${k.rateLimit ?? null})`;
    },

    async list(accountId) {
      const rows = await sql<
        {
          id: string;
          name: string;
          prefix: string;
          created_at: Date;
          last_used_at: Date | null;
          expires_at: Date | null;
          revoked_at: Date | null;
        }[]
      >`select id, name, prefix, created_at, last_used_at, expires_at, revoked_at
        from api_keys where account_id = ${accountId} order by created_at desc`;
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        prefix: r.prefix,
        createdAt: r.created_at,
        lastUsedAt: r.last_used_at,
        expiresAt: r.expires_at,
        revokedAt: r.revoked_at,
      }));
    },

    async revoke(accountId, keyId) {
      const rows = await sql`
        update api_keys set revoked_at = coalesce(revoked_at, now())
        where id = ${keyId} and account_id = ${accountId} returning id`;
      return rows.length > 0;
    },

    findCallerAndCount(hash, windowStart, n) {
      return lookups.run({ hash, windowStart: windowStart.toISOString(), n });
    },

    async countRequests(counterKey, windowStart, n) {
      const [row] = await sql<{ count: number }[]>`
        with counted as (select ${counterKey}::text as id), c as (${countRequests(sql, windowStart, n)})
        select count from c`;
      return row?.count ?? 0;
    },

    async pruneRateCounters() {
      await sql`delete from rate_counters where window_start < now() - interval '10 minutes'`;
    },
  };
}

interface Lookup {
  hash: string;
  windowStart: string;
  n: number;
}

type Found = Awaited<ReturnType<ApiKeyStore['findCallerAndCount']>>;

/**
 * The lookups of a batch of concurrent requests, in one statement per window: each key's requests are counted
 * together, and each request is answered with the count it would have seen alone, in arrival order. Counter rows
 * are upserted in key order, so two batches in flight never wait on each other in a cycle.
 */
async function findCallersAndCount(sql: Sql, batch: Lookup[]): Promise<(Found | FailedInBatch)[]> {
  // Requests per window, then per key within it: n summed.
  const totals = new Map<string, Map<string, number>>();
  for (const l of batch) {
    const perKey = totals.get(l.windowStart) ?? totals.set(l.windowStart, new Map()).get(l.windowStart)!;
    perKey.set(l.hash, (perKey.get(l.hash) ?? 0) + l.n);
  }
  const found = new Map<string, Map<string, KeyRow>>();
  // A window's statement that fails fails its own requests only: another window's may have counted already.
  const failed = new Map<string, unknown>();
  await Promise.all(
    [...totals].map(async ([windowStart, perKey]) => {
      try {
        // Looked up by hash, so timing reveals nothing about how much of a guess was right.
        const rows = await sql<KeyRow[]>`
          with wanted as (
            select * from unnest(${[...perKey.keys()]}::text[], ${[...perKey.values()]}::int[]) as w(hash, n)
          ), live as (
            select k.id, k.hash, k.account_id, coalesce(k.rate_limit_per_minute, a.rate_limit_per_minute) as rate_limit, w.n
            from wanted w join api_keys k on k.hash = w.hash join accounts a on a.id = k.account_id
            where k.revoked_at is null and (k.expires_at is null or k.expires_at > now())
          ), c as (
            insert into rate_counters (key_id, window_start, count)
            select id, ${windowStart}::timestamptz, n from live where n > 0 order by id
            on conflict (key_id, window_start) do update set count = rate_counters.count + excluded.count
            returning key_id, count
          )
          select live.hash, live.id, live.account_id, live.rate_limit, c.count from live left join c on c.key_id = live.id`;
        found.set(windowStart, new Map(rows.map((r) => [r.hash, r])));
      } catch (err) {
        failed.set(windowStart, err);
      }
    }),
  );
  // Each request, in arrival order, gets the window's count just after it: the count before the batch plus the
  // requests of the same key up to it.
  const seen = new Map<string, number>();
  return batch.map((l) => {
    if (failed.has(l.windowStart)) return new FailedInBatch(failed.get(l.windowStart));
    const row = found.get(l.windowStart)?.get(l.hash);
    if (!row) return null;
    const caller = { accountId: row.account_id, keyId: row.id, rateLimit: row.rate_limit };
    if (row.count === null || l.n === 0) return { caller, count: null };
    const key = `${l.windowStart} ${l.hash}`;
    const after = (seen.get(key) ?? row.count - totals.get(l.windowStart)!.get(l.hash)!) + l.n;
    seen.set(key, after);
    return { caller, count: after };
  });
}

interface KeyRow {
  hash: string;
  id: string;
  account_id: string;
  rate_limit: number | null;
  count: number | null;
}
