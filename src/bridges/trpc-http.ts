import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import type { Context } from '../router/context.ts';
import { appRouter } from '../router/index.ts';
import { failure, failureHeaders, failureOf } from './errors/failure.ts';
import { trpcErrorResponse } from './errors/trpc-error.ts';
import { listProcedures } from './procedures.ts';
import { rateLimitHeaders } from './response-headers.ts';
import { MAX_BATCH_CALLS } from './batch-size.ts';
import { readableRequest } from './unicode-edge.ts';

export const TRPC_PREFIX = '/trpc';

const METHOD_OF = { query: 'GET', mutation: 'POST' } as const;
const methods = new Map(
  listProcedures(appRouter).map((e) => [
    e.path,
    METHOD_OF[(e.procedure._def as unknown as { type: 'query' | 'mutation' }).type],
  ]),
);

/** The one method a (possibly comma-batched) procedure path accepts, or undefined when tRPC should answer 404. */
function allowedMethod(path: string): string | undefined {
  const wanted = new Set(path.split(',').map((p) => methods.get(p)));
  if (wanted.has(undefined) || wanted.size !== 1) return undefined;
  return [...wanted][0];
}

/**
 * tRPC over HTTP. A wrong method is 405 with `Allow` in tRPC's error shape (tRPC itself answers PUT/DELETE with a
 * text/plain 415); a query sent without `?input` gets `{}` (tRPC's client sends none when the input is omitted, so
 * `credits.get.query()` works); failures carry the same headers as REST (rate limit, Retry-After, WWW-Authenticate).
 */
export async function handleTrpc(request: Request, ctx: Context): Promise<Response> {
  const url = new URL(request.url);
  const rawPath = url.pathname.slice(TRPC_PREFIX.length + 1);
  let path = rawPath;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    // a malformed escape: no procedure has that name, tRPC answers 404
  }
  const allowed = allowedMethod(path);
  const answer = { requestId: ctx.requestId, requestHeaders: request.headers };
  if (allowed && request.method !== allowed) {
    return trpcErrorResponse(failure('METHOD_NOT_ALLOWED', `${path} accepts ${allowed} only`), answer, {
      allow: allowed,
    });
  }
  // Refused here rather than by tRPC's maxBatchSize, whose answer has no context to name the request's id.
  if (url.searchParams.get('batch') === '1' && path.split(',').length > MAX_BATCH_CALLS) {
    return trpcErrorResponse(failure('INVALID_REQUEST', `A batch carries at most ${MAX_BATCH_CALLS} calls`), answer);
  }
  let req = readableRequest(request); // the edge has read the body: tRPC reads a copy
  if (allowed === 'GET' && !url.searchParams.has('input') && !url.searchParams.has('batch')) {
    url.searchParams.set('input', '{}');
    req = new Request(url, { method: 'GET', headers: request.headers, signal: request.signal });
  }
  return fetchRequestHandler({
    endpoint: TRPC_PREFIX,
    req,
    router: appRouter,
    createContext: () => ctx,
    responseMeta: ({ errors, data }) => {
      const headers = trpcHeaders(ctx);
      const first = errors[0];
      if (!first) return { headers };
      const f = failureOf(first, ctx.requestId);
      for (const [k, v] of failureHeaders(f, { ...answer, rateLimit: ctx.out.rateLimit })) headers.set(k, v);
      // A batch with some calls answered keeps tRPC's own status (207): one call's failure is not the request's.
      return errors.length === 1 && data.length === 1 ? { headers, status: f.status } : { headers };
    },
  });
}

/** The headers every tRPC answer carries (tRPC's own, then the caller's window and cookies). */
export function trpcHeaders(ctx: Context): Headers {
  const headers = new Headers(rateLimitHeaders(ctx.out.rateLimit));
  // Answers may carry a session cookie or a CSRF token: never stored by a cache.
  headers.set('cache-control', 'no-store');
  for (const cookie of ctx.out.setCookies ?? []) headers.append('set-cookie', cookie);
  return headers;
}
