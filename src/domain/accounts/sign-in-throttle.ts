import { ServiceError } from '../errors.ts';
import type { Stores } from '../stores.ts';

export const THROTTLE_WINDOW_MS = 15 * 60_000;

export interface ThrottleLimits {
  perEmail: number;
  perIp: number;
}

/**
 * Counts one attempt against each subject's current window before any password is checked; refuses with 429 once
 * a subject is over its limit. The increment and the check are one statement, so concurrent guesses are counted
 * exactly. Refused attempts do not hash a password, so throttling is also cheap.
 */
export async function countAttempt(
  { accounts }: Pick<Stores, 'accounts'>,
  subjects: { subject: string; limit: number }[],
  now = Date.now(),
): Promise<void> {
  const windowStart = new Date(Math.floor(now / THROTTLE_WINDOW_MS) * THROTTLE_WINDOW_MS);
  for (const { subject, limit } of subjects) {
    const count = await accounts.countSignInAttempt(subject, windowStart);
    if (count > limit) {
      const retry = Math.max(1, Math.ceil((windowStart.getTime() + THROTTLE_WINDOW_MS - now) / 1000));
      throw new ServiceError(
        'RATE_LIMITED',
        `Too many sign-in attempts; try again in ${Math.ceil(retry / 60)} minutes`,
        retry,
      );
    }
  }
}
