// The one statement that counts requests against a fixed one-minute window. Every caller (API keys, OAuth grants,
// website sessions) embeds it in its own lookup, so a request costs one round trip and the counter rules live once.
import type { Sql } from '../../../db/client.ts';

/**
 * A CTE body: counts `n` requests for each row of the CTE `counted(id)` that comes before it (nothing when `n` is
 * 0 or no row matched), atomically, and returns the window's count including them. The upsert is what keeps the
 * limit exact across instances: concurrent requests serialize on the counter row.
 */
export const countRequests = (sql: Sql, windowStart: Date, n: number) => sql`
  insert into rate_counters (key_id, window_start, count)
  select id, ${windowStart.toISOString()}::timestamptz, ${n}::int from counted where ${n}::int > 0
  on conflict (key_id, window_start) do update set count = rate_counters.count + excluded.count
  returning count`;
