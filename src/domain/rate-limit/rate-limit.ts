import type { Stores } from '../stores.ts';

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  reset: number;
  allowed: boolean;
}

const WINDOW_MS = 60_000;

/** The fixed one-minute window `now` falls in, and the seconds until it ends. */
export function windowOf(now: number): { start: Date; reset: number } {
  const start = new Date(Math.floor(now / WINDOW_MS) * WINDOW_MS);
  return { start, reset: Math.max(1, Math.ceil((start.getTime() + WINDOW_MS - now) / 1000)) };
}

/** The window as a response reports it, once its count (this request included) is known. */
export function rateLimitState(count: number, limit: number, reset: number): RateLimitState {
  return { limit, remaining: Math.max(0, limit - count), reset, allowed: count <= limit };
}

/**
 * Counts requests (one by default) against a website account's current one-minute window (API keys and OAuth grants are
 * counted by authenticateAndCount, in their lookup). The counter lives in Postgres and is incremented atomically,
 * so every instance shares it and exactly `limit` requests get through per window, however many arrive at once.
 */
export async function consumeRateLimit(
  { apiKeys }: Pick<Stores, 'apiKeys'>,
  counterKey: string,
  limit: number,
  count = 1,
  now = Date.now(),
): Promise<RateLimitState> {
  const { start, reset } = windowOf(now);
  return rateLimitState(await apiKeys.countRequests(counterKey, start, count), limit, reset);
}
