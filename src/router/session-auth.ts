import { csrfMatches, findSession } from '../domain/accounts/sessions.ts';
import type { Session } from '../domain/accounts/session.ts';
import { ServiceError } from '../domain/errors.ts';
import type { Caller } from '../domain/keys/caller.ts';
import type { Context } from './context.ts';
import { readSessionToken } from './session-cookie.ts';

/** Rate-limit counters of website callers are keyed by account, so every tab and session shares one budget. */
export const SESSION_CALLER_PREFIX = 'acct:';

const CSRF_HEADER = 'x-csrf-token';

/** The signed-in session, with the CSRF header checked when `csrf` is set; throws UNAUTHENTICATED or FORBIDDEN. */
export async function requireSession(ctx: Context, csrf: boolean): Promise<{ session: Session; token: string }> {
  const token = readSessionToken(ctx.headers);
  const session = await findSession(ctx.deps, token);
  if (!session || !token)
    throw new ServiceError('UNAUTHENTICATED', 'You are not signed in, or your session has expired; sign in again');
  if (csrf && !csrfMatches(session, ctx.headers.get(CSRF_HEADER))) {
    throw new ServiceError(
      'FORBIDDEN',
      'The request was refused: missing or wrong x-csrf-token; reload the page and try again',
    );
  }
  return { session, token };
}

/** Whether the request names an API key (or any credential) in a header, rather than relying on the cookie. */
export const sendsApiKey = (headers: Headers) => headers.has('authorization') || headers.has('x-api-key');

/**
 * The website session as the caller of a service procedure (authenticateRequest takes this path when no key is
 * sent). Cookie callers must send the CSRF token on every call, queries included, because some queries spend
 * credits (frames.get) and a cross-site navigation carries Lax cookies. A key is never sent by a browser on its
 * own, so key callers need no token.
 */
export async function callerFromSession(ctx: Context): Promise<Caller> {
  const token = readSessionToken(ctx.headers);
  const session = await findSession(ctx.deps, token);
  if (!session)
    throw new ServiceError('INVALID_API_KEY', 'Your website session has expired; sign in again, or send an API key');
  if (!csrfMatches(session, ctx.headers.get(CSRF_HEADER))) {
    throw new ServiceError(
      'FORBIDDEN',
      'The request was refused: missing or wrong x-csrf-token; reload the page and try again',
    );
  }
  return {
    accountId: session.accountId,
    keyId: SESSION_CALLER_PREFIX + session.accountId,
    rateLimit: session.rateLimit,
  };
}
