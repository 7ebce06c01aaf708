import { csrfMatches, findSession, type Session } from '../domain/accounts/sessions.ts';
import { ServiceError } from '../domain/errors.ts';
import { readApiKey } from '../domain/keys/api-key.ts';
import { authenticateApiKey, type Caller } from '../domain/keys/manage-keys.ts';
import type { Context } from './context.ts';
import { readSessionToken } from './session-cookie.ts';

/** Rate-limit counters of website callers are keyed by account, so every tab and session shares one budget. */
export const SESSION_CALLER_PREFIX = 'acct:';

const CSRF_HEADER = 'x-csrf-token';

/** The signed-in session, with the CSRF header checked when `csrf` is set; throws UNAUTHENTICATED or FORBIDDEN. */
export async function requireSession(ctx: Context, csrf: boolean): Promise<{ session: Session; token: string }> {
  const token = readSessionToken(ctx.headers);
  const session = await findSession(ctx.deps, token);
  if (!session || !token) throw new ServiceError('UNAUTHENTICATED', 'You are not signed in, or your session has expired; sign in again');
  if (csrf && !csrfMatches(session, ctx.headers.get(CSRF_HEADER))) {
    throw new ServiceError('FORBIDDEN', 'The request was refused: missing or wrong x-csrf-token; reload the page and try again');
  }
  return { session, token };
}

/**
 * The caller of a service procedure: an API key when one is sent (no CSRF: a key is never sent by a browser on
 * its own), else the website session cookie. Cookie callers must send the CSRF token on every call, queries
 * included, because some queries spend credits (frames.get) and a cross-site navigation carries Lax cookies.
 */
export const sendsApiKey = (headers: Headers) => headers.has('authorization') || headers.has('x-api-key');

export async function callerFromRequest(ctx: Context): Promise<Caller> {
  if (sendsApiKey(ctx.headers) || !readSessionToken(ctx.headers)) return authenticateApiKey(ctx.deps, readApiKey(ctx.headers));
  const token = readSessionToken(ctx.headers);
  const session = await findSession(ctx.deps, token);
  if (!session) throw new ServiceError('INVALID_API_KEY', 'Your website session has expired; sign in again, or send an API key');
  if (!csrfMatches(session, ctx.headers.get(CSRF_HEADER))) {
    throw new ServiceError('FORBIDDEN', 'The request was refused: missing or wrong x-csrf-token; reload the page and try again');
  }
  return { accountId: session.accountId, keyId: SESSION_CALLER_PREFIX + session.accountId, rateLimit: session.rateLimit };
}
