import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { newId } from '../ids.ts';
import type { Stores } from '../stores.ts';
import type { Session } from './session.ts';

export const SESSION_DAYS = 30;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * A new session with a fresh token and CSRF token. `replacing` (the token the browser presented, if any) is deleted
 * in the same transaction, so a session id planted before sign-in never becomes an authenticated one.
 */
export async function createSession(
  { sessions }: Pick<Stores, 'sessions'>,
  accountId: string,
  replacing?: string | null,
): Promise<{ token: string; session: Session }> {
  const token = randomBytes(32).toString('base64url');
  const csrfToken = randomBytes(32).toString('base64url');
  const id = newId('ses');
  const expiresAt = new Date(Date.now() + SESSION_DAYS * 86_400_000);
  const account = await sessions.create({
    id,
    accountId,
    tokenHash: hashToken(token),
    csrfToken,
    expiresAt,
    replacingHash: replacing ? hashToken(replacing) : null,
  });
  return { token, session: { id, accountId, email: account.email, csrfToken, rateLimit: account.rateLimit } };
}

/** The live session behind a cookie token, or null (unknown, expired, or its account deleted). */
export async function findSession(
  { sessions }: Pick<Stores, 'sessions'>,
  token: string | null,
): Promise<Session | null> {
  if (!token || token.length > 200) return null;
  return sessions.findByTokenHash(hashToken(token));
}

export async function deleteSession({ sessions }: Pick<Stores, 'sessions'>, token: string): Promise<void> {
  await sessions.deleteByTokenHash(hashToken(token));
}

/** Constant-time check of the x-csrf-token header against the session's token. */
export function csrfMatches(session: Session, header: string | null): boolean {
  if (!header) return false;
  const a = Buffer.from(session.csrfToken);
  const b = Buffer.from(header);
  return a.length === b.length && timingSafeEqual(a, b);
}
