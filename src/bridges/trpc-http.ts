import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import type { Context } from '../router/context.ts';
import { appRouter } from '../router/index.ts';
import { failure, failureHeaders, failureOf } from './errors/failure.ts';
import { trpcErrorResponse } from './errors/trpc-error.ts';
import { listProcedures } from './procedures.ts';
import { rateLimitHeaders } from './response-headers.ts';
import type { StoredPart } from '../domain/stored-json.ts';
import { storedPartsOf, type StoredAnswers } from './stored-output.ts';
import type { StoredPages } from './stored-pages.ts';
import { MAX_BATCH_CALLS } from './batch-size.ts';
import { readableRequest, requestText } from './unicode-edge.ts';

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
export async function handleTrpc(
  request: Request,
  ctx: Context,
  stored: StoredAnswers,
  pages?: StoredPages,
): Promise<Response> {
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
  let req = request;
  if (pages?.has(path) && request.method === 'POST' && !url.search && plainJsonCall(request.headers)) {
    const fast = await storedPageCall(request, ctx, stored, pages, path);
    if (fast instanceof Response) return fast;
    req = fast;
  }
  if (req === request) req = readableRequest(request); // the edge has read the body: tRPC reads a copy
  if (allowed === 'GET' && !url.searchParams.has('input') && !url.searchParams.has('batch')) {
    url.searchParams.set('input', '{}');
    req = new Request(url, { method: 'GET', headers: request.headers, signal: request.signal });
  }
  let parts: StoredPart[] = [];
  ctx.streamed = url.searchParams.get('batch') === '1' && asksForStream(request.headers);
  const res = await fetchRequestHandler({
    endpoint: TRPC_PREFIX,
    req,
    router: appRouter,
    createContext: () => ctx,
    responseMeta: ({ errors, data }) => {
      // Answers that carry a stored part, in the order they are serialized (a batch has several).
      parts = storedPartsOf(data.map((d) => (d as { result?: { data?: unknown } })?.result?.data));
      const headers = trpcHeaders(ctx);
      const first = errors[0];
      if (!first) return { headers };
      const f = failureOf(first, ctx.requestId);
      for (const [k, v] of failureHeaders(f, { ...answer, rateLimit: ctx.out.rateLimit })) headers.set(k, v);
      // A batch with some calls answered keeps tRPC's own status (207): one call's failure is not the request's.
      return errors.length === 1 && data.length === 1 ? { headers, status: f.status } : { headers };
    },
  });
  if (parts.length === 0) return res;
  const headers = new Headers(res.headers);
  headers.delete('content-length');
  return new Response(stored.write(await res.text(), parts), { status: res.status, headers });
}

/**
 * A single call that is a stored read (a stored transcript's page), answered before tRPC as tRPC would answer it; else
 * the request for tRPC, its body handed over again (the request's own has been read).
 */
async function storedPageCall(
  request: Request,
  ctx: Context,
  stored: StoredAnswers,
  pages: StoredPages,
  path: string,
): Promise<Response | Request> {
  const text = await requestText(request);
  const answer = await pages.call(ctx, path, parseJson(text));
  if (!answer)
    return new Request(request.url, { method: 'POST', headers: request.headers, body: text, signal: request.signal });
  const json = `{"result":{"data":${JSON.stringify(answer)}}}`;
  const headers = trpcHeaders(ctx);
  // What tRPC's own response carries besides.
  headers.set('vary', 'trpc-accept, accept');
  headers.set('content-type', 'application/json');
  return new Response(stored.write(json, storedPartsOf([answer])), { status: 200, headers });
}

/** The headers every tRPC answer carries (tRPC's own, then the caller's window and cookies). */
function trpcHeaders(ctx: Context): Headers {
  const headers = new Headers(rateLimitHeaders(ctx.out.rateLimit));
  // Answers may carry a session cookie or a CSRF token: never stored by a cache.
  headers.set('cache-control', 'no-store');
  for (const cookie of ctx.out.setCookies ?? []) headers.append('set-cookie', cookie);
  return headers;
}

/**
 * A call tRPC answers as one JSON document, by tRPC's own tests: the media type is application/json (any case, any
 * parameters; `application/jsonx` is its 415), and no streaming is asked for (`trpc-accept`, or application/jsonl in
 * `accept`: its 400 on a single call).
 */
function plainJsonCall(headers: Headers): boolean {
  const type = (headers.get('content-type') ?? '').split(';', 1)[0]!.trim().toLowerCase();
  const accepts = (headers.get('accept') ?? '').split(',').map((t) => t.trim());
  return type === 'application/json' && !headers.has('trpc-accept') && !accepts.includes('application/jsonl');
}

/** Whether tRPC streams the answer of a batch (its own reading: `trpc-accept`, else application/jsonl in `accept`). */
function asksForStream(headers: Headers): boolean {
  const accepts = (headers.get('accept') ?? '').split(',').map((t) => t.trim());
  return (
    (headers.get('trpc-accept') ?? (accepts.includes('application/jsonl') ? 'application/jsonl' : null)) ===
    'application/jsonl'
  );
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
