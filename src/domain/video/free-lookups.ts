// Video lookups (GET /videos/{id}, its tracks) are free, but one that is not stored spends the cluster's shared
// YouTube budget. Each account gets its own allowance of those per window, so a caller with no credits cannot spend
// the budget every other account depends on.
import { ServiceError } from '../errors.ts';

/** Windows are this long; counters older than one window are dropped by the rate-limit clean-up. */
const FREE_LOOKUP_WINDOW_MS = 10 * 60_000;

export interface FreeLookupCounter {
  /** Counts one lookup for the account in the window starting at `windowStart`; the window's count including it. */
  count(accountId: string, windowStart: Date): Promise<number>;
}

/** Takes one of the account's free lookups, or refuses with RATE_LIMITED until the window ends. */
export async function takeFreeLookup(
  ports: { freeLookups: FreeLookupCounter },
  accountId: string,
  limit: number,
  now = Date.now(),
): Promise<void> {
  const windowStart = now - (now % FREE_LOOKUP_WINDOW_MS);
  const used = await ports.freeLookups.count(accountId, new Date(windowStart));
  if (used <= limit) return;
  const retryAfter = Math.max(1, Math.ceil((windowStart + FREE_LOOKUP_WINDOW_MS - now) / 1000));
  throw new ServiceError(
    'RATE_LIMITED',
    `This account has used its ${limit} free lookups of videos not yet stored for these 10 minutes; stored videos still answer. Retry in ${retryAfter} s`,
    retryAfter,
  );
}
