import type { Sql } from '../../../db/client.ts';
import { ServiceError } from '../errors.ts';

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
export async function countAttempt(sql: Sql, subjects: { subject: string; limit: number }[], now = Date.now()): Promise<void> {
  const windowStart = new Date(Math.floor(now / THROTTLE_WINDOW_MS) * THROTTLE_WINDOW_MS);
  for (const { subject, limit } of subjects) {
    const [row] = await sql<{ count: number }[]>`
      insert into sign_in_attempts (subject, window_start, count) values (${subject}, ${windowStart.toISOString()}::timestamptz, 1)
      on conflict (subject, window_start) do update set count = sign_in_attempts.count + 1
      returning count`;
    if (row!.count > limit) {
      const retry = Math.max(1, Math.ceil((windowStart.getTime() + THROTTLE_WINDOW_MS - now) / 1000));
      throw new ServiceError('RATE_LIMITED', `Too many sign-in attempts; try again in ${Math.ceil(retry / 60)} minutes`, retry);
    }
  }
}

/** A successful sign-in clears the email's count, so the owner is not locked out by their own earlier typos. */
export async function clearAttempts(sql: Sql, subject: string): Promise<void> {
  await sql`delete from sign_in_attempts where subject = ${subject}`;
}

export async function pruneSignInAttempts(sql: Sql): Promise<void> {
  await sql`delete from sign_in_attempts where window_start < now() - interval '1 hour'`;
}
