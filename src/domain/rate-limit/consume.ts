import type { Sql } from '../../../db/client.ts';

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  reset: number;
  allowed: boolean;
}

const WINDOW_MS = 60_000;

/**
 * Counts one request against the key's current one-minute window. The counter lives in
 * Postgres and is incremented atomically, so every instance shares it and exactly `limit`
 * requests get through per window, however many arrive at once.
 */
/** The fixed one-minute window `now` falls in, and the seconds until it ends. */
export function windowOf(now: number): { start: Date; reset: number } {
  const start = new Date(Math.floor(now / WINDOW_MS) * WINDOW_MS);
  return { start, reset: Math.max(1, Math.ceil((start.getTime() + WINDOW_MS - now) / 1000)) };
}

export async function consumeRateLimit(sql: Sql, keyId: string, limit: number, now = Date.now()): Promise<RateLimitState> {
  const { start: windowStart, reset } = windowOf(now);
  const [row] = await sql<{ count: number }[]>`
    insert into rate_counters (key_id, window_start, count) values (${keyId}, ${windowStart.toISOString()}::timestamptz, 1)
    on conflict (key_id, window_start) do update set count = rate_counters.count + 1
    returning count`;
  const count = row!.count;
  return {
    limit,
    remaining: Math.max(0, limit - count),
    reset,
    allowed: count <= limit,
  };
}

export async function pruneRateCounters(sql: Sql): Promise<void> {
  await sql`delete from rate_counters where window_start < now() - interval '10 minutes'`;
}
