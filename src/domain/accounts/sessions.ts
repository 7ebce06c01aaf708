import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Sql } from '../../../db/client.ts';
import { newId } from '../ids.ts';

export const SESSION_DAYS = 30;

export interface Session {
  id: string;
  accountId: string;
  email: string;
  csrfToken: string;
  /** The account's own requests-per-minute limit, or null for the service default. */
  rateLimit: number | null;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * A new session with a fresh token and CSRF token. `replacing` (the token the browser presented, if any) is deleted
 * in the same statement batch, so a session id planted before sign-in never becomes an authenticated one.
 */
export async function createSession(sql: Sql, accountId: string, replacing?: string | null): Promise<{ token: string; session: Session }> {
  const token = randomBytes(32).toString('base64url');
  const csrfToken = randomBytes(32).toString('base64url');
  const id = newId('ses');
  const expires = new Date(Date.now() + SESSION_DAYS * 86_400_000).toISOString();
  const [row] = await sql.begin(async (tx) => {
    if (replacing) await tx`delete from sessions where token_hash = ${hashToken(replacing)}`;
    // Expired sessions of this account are swept here rather than by a timer.
    await tx`delete from sessions where account_id = ${accountId} and expires_at < now()`;
    await tx`insert into sessions (id, account_id, token_hash, csrf_token, expires_at)
             values (${id}, ${accountId}, ${hashToken(token)}, ${csrfToken}, ${expires}::timestamptz)`;
    return tx<{ email: string; rate_limit: number | null }[]>`
      select email, rate_limit_per_minute as rate_limit from accounts where id = ${accountId}`;
  });
  return { token, session: { id, accountId, email: row!.email, csrfToken, rateLimit: row!.rate_limit } };
}

/** The live session behind a cookie token, or null (unknown, expired, or its account deleted). */
export async function findSession(sql: Sql, token: string | null): Promise<Session | null> {
  if (!token || token.length > 200) return null;
  const [row] = await sql<{ id: string; account_id: string; email: string; csrf_token: string; rate_limit: number | null }[]>`
    select s.id, s.account_id, a.email, s.csrf_token, a.rate_limit_per_minute as rate_limit
    from sessions s join accounts a on a.id = s.account_id
    where s.token_hash = ${hashToken(token)} and s.expires_at > now()`;
  return row ? { id: row.id, accountId: row.account_id, email: row.email, csrfToken: row.csrf_token, rateLimit: row.rate_limit } : null;
}

export async function deleteSession(sql: Sql, token: string): Promise<void> {
  await sql`delete from sessions where token_hash = ${hashToken(token)}`;
}

/** Constant-time check of the x-csrf-token header against the session's token. */
export function csrfMatches(session: Session, header: string | null): boolean {
  if (!header) return false;
  const a = Buffer.from(session.csrfToken);
  const b = Buffer.from(header);
  return a.length === b.length && timingSafeEqual(a, b);
}
