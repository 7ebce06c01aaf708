// A lookup that is not stored spends the cluster's shared YouTube (or media host) budget. Each account gets its own
// allowance of those per window, so a caller with no credits cannot spend the budget every other account depends on.
import { ServiceError } from '../errors.ts';

/** Windows are this long; counters older than one window are dropped by the rate-limit clean-up. */
export const FREE_LOOKUP_WINDOW_MS = 10 * 60_000;

/** Takes one of the account's free lookups (`count` adds one and answers the window's total), or refuses. */
export async function takeFreeLookup(
  count: (windowStart: Date) => Promise<number>,
  limit: number,
  now: number,
): Promise<void> {
  const windowStart = now - (now % FREE_LOOKUP_WINDOW_MS);
  const used = await count(new Date(windowStart));
  if (used <= limit) return;
  throw allowanceSpent(limit, now);
}

/** RATE_LIMITED until the account's free-lookup window ends. */
export function allowanceSpent(limit: number, now: number): ServiceError {
  const windowStart = now - (now % FREE_LOOKUP_WINDOW_MS);
  const retryAfter = Math.max(1, Math.ceil((windowStart + FREE_LOOKUP_WINDOW_MS - now) / 1000));
  return new ServiceError(
    'RATE_LIMITED',
    `This account has used its ${limit} free lookups of things not yet stored for these 10 minutes; stored videos still answer. Retry in ${retryAfter} s`,
    retryAfter,
  );
}
