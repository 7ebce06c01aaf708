import type { Deps } from '../deps.ts';
import { newId } from '../domain/ids.ts';
import type { Authenticated } from '../domain/keys/authenticate.ts';
import type { Caller, CallerRequest } from '../domain/keys/caller.ts';
import type { RateLimitState } from '../domain/rate-limit/rate-limit.ts';
import type { Logger } from '../infra/log/logger.ts';

export type Surface = 'rest' | 'trpc' | 'mcp';

/** What a procedure learns about its request, and what it reports back to the HTTP layer. */
export interface Context {
  deps: Deps;
  requestId: string;
  surface: Surface;
  headers: Headers;
  log: Logger;
  signal?: AbortSignal;
  /**
   * Set by a bridge that authenticated (and counted) the request before its procedure: the MCP bridge, before the
   * SDK, and a plain read answered before tRPC (a procedure's `meta.stored`); otherwise keyedProcedure authenticates.
   */
  auth?: Authenticated;
  /** The client's address (socket, or X-Forwarded-For behind a trusted proxy); for sign-in throttling. */
  clientIp?: string;
  /** Filled in by middleware and procedures, turned into response headers by the bridges. */
  out: {
    rateLimit?: RateLimitState;
    status?: number;
    location?: string;
    setCookies?: string[];
  };
}

export interface AuthedContext extends Context {
  caller: Caller;
}

/** The request as the domain's verbs take it. */
export const callerRequest = (ctx: AuthedContext): CallerRequest => ({
  caller: ctx.caller,
  requestId: ctx.requestId,
  signal: ctx.signal,
});

/**
 * The context of one call among several in one HTTP request (a tRPC batch, a JSON-RPC batch): its own request id, so
 * the ledger, jobs and credit history tell the calls apart and each answer's creditsCharged is its own. Its log lines
 * name both ids.
 */
export function ownCall(ctx: Context): Context {
  const requestId = newId('req');
  return { ...ctx, requestId, log: ctx.log.child({ callId: requestId }) };
}
