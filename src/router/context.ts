import type { Deps } from '../deps.ts';
import type { Authenticated } from '../domain/keys/authenticate.ts';
import type { Caller } from '../domain/keys/manage-keys.ts';
import type { RateLimitState } from '../domain/rate-limit/rate-limit.ts';
import type { StoredPage } from '../domain/subtitles/fetch-transcript.ts';
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
   * Set by the MCP bridge, which authenticates (and counts the tool calls) before the SDK; REST and tRPC requests
   * are authenticated by keyedProcedure.
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
    /**
     * Set by a bridge that answers one procedure per request as JSON: it splices `segmentsJson` in place of the
     * answer's empty `"segments":[]` (see src/bridges/stored-segments.ts). Procedures use it at most once.
     */
    splicesSegments?: boolean;
    segmentsJson?: Uint8Array;
    /**
     * Set by the MCP bridge for a single tool call: a page of a stored transcript is handed over as `storedPage`
     * with the answer's segments left empty, and the bridge sends that page as it rendered it before (see
     * src/bridges/mcp-stored-results.ts). Procedures use it at most once.
     */
    takesStoredPage?: boolean;
    storedPage?: StoredPage;
  };
}

export interface AuthedContext extends Context {
  caller: Caller;
}
