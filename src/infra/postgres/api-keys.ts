// API keys (stored by hash) and their per-minute request counters.
import type { Sql } from '../../../db/client.ts';
import type { ApiKeyStore } from '../../domain/keys/api-key-store.ts';
import { countRequests } from './rate-counters.ts';

export function createApiKeyStore(sql: Sql): ApiKeyStore {
  return {
    async insert(k) {
      await sql`
        insert into api_keys (id, account_id, name, prefix, hash, expires_at, rate_limit_per_minute)
        values (${k.id}, ${k.accountId}, ${k.name}, ${k.prefix}, ${k.hash}, ${k.expiresAt?.toISOString() ?? null}::timestamptz, ${k.rateLimit ?? null})`;
    },

    async list(accountId) {
      const rows = await sql<
        { id: string; name: string; prefix: string; created_at: Date; last_used_at: Date | null; expires_at: Date | null; revoked_at: Date | null }[]
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

    async findCallerAndCount(hash, windowStart, n) {
      // Looked up by hash, so timing reveals nothing about how much of a guess was right.
      const [row] = await sql<{ id: string; account_id: string; rate_limit: number | null; count: number | null }[]>`
        with counted as (
          select k.id, k.account_id, coalesce(k.rate_limit_per_minute, a.rate_limit_per_minute) as rate_limit
          from api_keys k join accounts a on a.id = k.account_id
          where k.hash = ${hash} and k.revoked_at is null and (k.expires_at is null or k.expires_at > now())
        ), c as (${countRequests(sql, windowStart, n)})
        select counted.id, counted.account_id, counted.rate_limit, (select count from c) as count from counted`;
      return row ? { caller: { accountId: row.account_id, keyId: row.id, rateLimit: row.rate_limit }, count: row.count } : null;
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
