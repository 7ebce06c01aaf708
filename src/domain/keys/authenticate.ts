// The one way a request is authenticated and counted, on every surface: an API key (REST, tRPC, MCP) or an OAuth
// access token (its scope names the surfaces: "mcp" for /mcp, "api" for REST and tRPC), looked up and counted against its rate-limit window in one statement, its use noted once.
import { ServiceError } from '../errors.ts';
import type { OAuthPorts } from '../oauth/authorization.ts';
import { rateLimitState, windowOf, type RateLimitState } from '../rate-limit/rate-limit.ts';
import type { Stores } from '../stores.ts';
import type { LastUsedRecorder } from './api-key-store.ts';
import { hashApiKey } from './api-key.ts';
import type { Caller } from './caller.ts';

export type Credential =
  /** `key` null: none was sent. */
  | { kind: 'api-key'; key: string | null }
  /**
   * An OAuth access token, valid only for the resource it was issued for. One valid for `otherResource` instead (a
   * token of another scope) is refused FORBIDDEN: signed in, but not allowed here.
   */
  | { kind: 'access-token'; token: string; resource: string; otherResource?: string };

export interface AuthenticatePorts extends Pick<Stores, 'apiKeys'> {
  oauth: Pick<OAuthPorts, 'store' | 'tokens'>;
  lastUsed: LastUsedRecorder;
}

export interface Authenticated {
  caller: Caller;
  /** The caller's window after counting; null when nothing was counted (`count` 0: MCP protocol traffic). */
  rateLimit: RateLimitState | null;
  /** How many of the `count` requests fit in the window (the first ones counted do). */
  admitted: number;
}

/**
 * Finds the caller behind a credential and counts `count` requests against its current one-minute window, in
 * one statement; throws INVALID_API_KEY without saying which check failed. The counter lives in PostgreSQL, so
 * every instance shares it; a revoked key or grant is refused on the very next request.
 */
export async function authenticateAndCount(
  ports: AuthenticatePorts,
  credential: Credential,
  opts: { count: number; defaultLimit: number; now?: number },
): Promise<Authenticated> {
  const { start, reset } = windowOf(opts.now ?? Date.now());
  const counted = (caller: Caller, count: number | null): Authenticated => {
    if (count === null) return { caller, rateLimit: null, admitted: 0 };
    const limit = caller.rateLimit ?? opts.defaultLimit;
    return {
      caller,
      rateLimit: rateLimitState(count, limit, reset),
      admitted: Math.max(0, Math.min(opts.count, limit - (count - opts.count))),
    };
  };

  if (credential.kind === 'access-token') {
    const claims = await ports.oauth.tokens.verify(credential.token, credential.resource);
    if (
      !claims &&
      credential.otherResource &&
      (await ports.oauth.tokens.verify(credential.token, credential.otherResource))
    )
      throw new ServiceError('FORBIDDEN', 'The access token was not granted the scope this API needs ("api")');
    const live = claims && (await ports.oauth.store.useGrantAndCount(claims.grantId, start, opts.count));
    if (!claims || !live || live.accountId !== claims.accountId) {
      throw new ServiceError(
        'INVALID_API_KEY',
        'The access token is invalid, expired, revoked or not for this resource',
      );
    }
    // Counted per grant, like a key; "last used" is noted by the statement itself.
    return counted({ accountId: live.accountId, keyId: claims.grantId, rateLimit: live.rateLimit }, live.count);
  }

  if (!credential.key)
    throw new ServiceError(
      'INVALID_API_KEY',
      'Missing API key: send "Authorization: Bearer <key>" or "x-api-key: <key>"',
    );
  const found = await ports.apiKeys.findCallerAndCount(hashApiKey(credential.key), start, opts.count);
  if (!found) throw new ServiceError('INVALID_API_KEY', 'The API key is invalid, revoked or expired');
  ports.lastUsed.touch(found.caller.keyId);
  return counted(found.caller, found.count);
}
