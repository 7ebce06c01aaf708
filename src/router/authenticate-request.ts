// Who is calling, and does this call fit in their rate limit: the one path every surface takes (keyedProcedure for
// REST and tRPC, the MCP bridge before the SDK). One statement per request finds the caller and counts the call.
import { ServiceError } from '../domain/errors.ts';
import { readApiKey } from '../domain/keys/api-key.ts';
import { authenticateAndCount, type Authenticated, type Credential } from '../domain/keys/authenticate.ts';
import { consumeRateLimit, type RateLimitState } from '../domain/rate-limit/rate-limit.ts';
import { scopeResources } from '../domain/oauth/scope.ts';
import type { Deps } from '../deps.ts';
import type { Context } from './context.ts';
import { callerFromSession, sendsApiKey } from './session-auth.ts';
import { readSessionToken } from './session-cookie.ts';

/** The resource OAuth access tokens of scope "mcp" are issued for (RFC 8707). */
export const mcpResource = (deps: Pick<Deps, 'publicUrl'>) => scopeResources(deps.publicUrl).mcp;

/** A signed access token (a JWT: three base64url parts); anything else sent as a Bearer is an API key. */
const JWT = /^[\w-]{1,2000}\.[\w-]{1,4000}\.[\w-]{0,1000}$/;

/**
 * An API key from either header; a Bearer token that is not an API key is an OAuth access token: on /mcp one of
 * scope "mcp" (anything else is invalid there), on REST and tRPC one of scope "api" (one of "mcp" only is FORBIDDEN).
 */
function credentialOf(ctx: Context): Credential {
  const token = readApiKey(ctx.headers);
  if (!token || token.startsWith('sk_') || ctx.headers.has('x-api-key')) return { kind: 'api-key', key: token };
  const resources = scopeResources(ctx.deps.publicUrl);
  if (ctx.surface === 'mcp') return { kind: 'access-token', token, resource: resources.mcp };
  if (JWT.test(token)) return { kind: 'access-token', token, resource: resources.api, otherResource: resources.mcp };
  return { kind: 'api-key', key: token };
}

/**
 * Authenticates the request and counts `count` calls against the caller's window (0 for MCP protocol traffic,
 * which is not counted). The website's session cookie (no key sent, REST and tRPC only) is checked with its
 * CSRF token, then counted per account.
 */
export async function authenticateRequest(ctx: Context, count: number): Promise<Authenticated> {
  const defaultLimit = ctx.deps.config.RATE_LIMIT_PER_MINUTE;
  if (ctx.surface !== 'mcp' && !sendsApiKey(ctx.headers) && readSessionToken(ctx.headers)) {
    const caller = await callerFromSession(ctx);
    const rateLimit = await consumeRateLimit(ctx.deps, caller.keyId, caller.rateLimit ?? defaultLimit, count);
    return { caller, rateLimit, admitted: rateLimit.allowed ? count : 0 };
  }
  return authenticateAndCount(ctx.deps, credentialOf(ctx), { count, defaultLimit });
}

/**
 * The window as one procedure call of a request authenticated before its procedures ran (MCP: the tool calls are
 * counted with the lookup) sees it: allowed while admitted calls are left, each call spending one.
 */
export function spendCall(auth: Authenticated): RateLimitState {
  const s = auth.rateLimit ?? { limit: 0, remaining: 0, reset: 60, allowed: false };
  if (auth.admitted <= 0) return { ...s, remaining: 0, allowed: false };
  auth.admitted--;
  return { ...s, allowed: true };
}

/** RATE_LIMITED for a window that is used up. */
export const rateLimited = (s: RateLimitState) =>
  new ServiceError(
    'RATE_LIMITED',
    `Rate limit of ${s.limit} requests per minute exceeded; retry in ${s.reset} s`,
    s.reset,
  );
