import { ServiceError } from '../errors.ts';
import type { Stores } from '../stores.ts';
import { waitText } from './wait-text.ts';

const THROTTLE_WINDOW_MS = 15 * 60_000;

export interface ThrottleLimits {
  /** Failures per (email, address) before that pair waits (OWASP: delays per pair, never a lockout of the owner). */
  freeFailures: number;
  /** Admitted attempts per email per window, all addresses together, past which any failure starts a delay. */
  emailCeiling: number;
  perIp: number;
}

/** The first delay; each further failure doubles it, up to the cap. */
const FIRST_DELAY_S = 60;
const MAX_DELAY_S = 3600;
/** A pair's count starts over after a day without attempts. */
const FAILURE_MEMORY_S = 86_400;

const windowOf = (now: number) => new Date(Math.floor(now / THROTTLE_WINDOW_MS) * THROTTLE_WINDOW_MS);

const rateLimited = (what: string, retry: number) =>
  new ServiceError('RATE_LIMITED', `${what}; try again in ${waitText(retry)}`, retry);

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
  const windowStart = windowOf(now);
  for (const { subject, limit } of subjects) {
    const count = await accounts.countSignInAttempt(subject, windowStart);
    if (count > limit) {
      const retry = Math.max(1, Math.ceil((windowStart.getTime() + THROTTLE_WINDOW_MS - now) / 1000));
      throw rateLimited('Too many sign-in attempts', retry);
    }
  }
}

/**
 * Admits one password check for this email from this address, or refuses with 429 while the pair waits. The attempt
 * is counted as a failure before the password is checked (one statement with the check), so parallel guesses cannot
 * slip past; a success clears it (`clearSignInFailures`). An address without failures is always admitted, so an
 * attacker elsewhere can slow the owner's typos, never refuse the owner's right password.
 */
export async function admitPasswordCheck(
  { accounts }: Pick<Stores, 'accounts'>,
  email: string,
  address: string,
  limits: Pick<ThrottleLimits, 'freeFailures' | 'emailCeiling'>,
  now: number,
): Promise<void> {
  const emailSubject = `email:${email}`;
  const windowStart = windowOf(now);
  // A spread-out attack (few guesses from each of many addresses) is slowed by delaying from the first failure.
  const emailWide = await accounts.signInAttemptsSoFar(emailSubject, windowStart);
  const threshold = emailWide >= limits.emailCeiling ? 1 : limits.freeFailures;
  const claim = await accounts.claimSignInAttempt(email, address, new Date(now), {
    threshold,
    firstDelayS: FIRST_DELAY_S,
    maxDelayS: MAX_DELAY_S,
    memoryS: FAILURE_MEMORY_S,
  });
  if (!claim.admitted) {
    const retry = Math.max(1, Math.ceil((claim.blockedUntil.getTime() - now) / 1000));
    throw rateLimited('Too many failed sign-ins for this email from your address', retry);
  }
  await accounts.countSignInAttempt(emailSubject, windowStart);
}
