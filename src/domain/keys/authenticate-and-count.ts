import type { Sql } from '../../../db/client.ts';
import { ServiceError } from '../errors.ts';
import { windowOf, type RateLimitState } from '../rate-limit/consume.ts';
import { hashApiKey } from './api-key.ts';
import type { Caller } from './manage-keys.ts';

/**
 * The hot path's one round trip: finds the key's caller and counts the request against its
 * rate-limit window in a single statement. Same rules as authenticateApiKey + consumeRateLimit.
 */
export async function authenticateAndCount(
  sql: Sql,
  key: string | null,
  defaultLimit: number,
  now = Date.now(),
): Promise<{ caller: Caller; rateLimit: RateLimitState }> {
  if (!key) throw new ServiceError('INVALID_API_KEY', 'Missing API key: send "Authorization: Bearer <key>" or "x-api-key: <key>"');
  const { start, reset } = windowOf(now);
  const [row] = await sql<{ id: string; account_id: string; rate_limit: number | null; count: number }[]>`
    with k as (
      select k.id, k.account_id, coalesce(k.rate_limit_per_minute, a.rate_limit_per_minute) as rate_limit
      from api_keys k join accounts a on a.id = k.account_id
      where k.hash = ${hashApiKey(key)} and k.revoked_at is null and (k.expires_at is null or k.expires_at > now())
    ), c as (
      insert into rate_counters (key_id, window_start, count)
      select id, ${start.toISOString()}::timestamptz, 1 from k
      on conflict (key_id, window_start) do update set count = rate_counters.count + 1
      returning count
    )
    select k.id, k.account_id, k.rate_limit, (select count from c) as count from k`;
  if (!row) throw new ServiceError('INVALID_API_KEY', 'The API key is invalid, revoked or expired');
  const limit = row.rate_limit ?? defaultLimit;
  return {
    caller: { accountId: row.account_id, keyId: row.id, rateLimit: row.rate_limit },
    rateLimit: { limit, remaining: Math.max(0, limit - row.count), reset, allowed: row.count <= limit },
  };
}
