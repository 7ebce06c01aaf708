import type { TRPCError } from '@trpc/server';
import { createOpenApiNodeHttpHandler } from 'trpc-to-openapi';
import type { AppRouter } from '../router/index.ts';
import type { Context } from '../router/context.ts';
import { failureOf, type Failure } from './errors/failure.ts';
import { listProcedures } from './procedures.ts';
import { pinCoercion, typedQuery } from './rest-query.ts';
import { nodeRequest, runNodeHandler, type JsonBody, type RestRecords } from './rest-node-adapter.ts';
import { requestText } from './unicode-edge.ts';

export const REST_PREFIX = '/api/v1';

type ContextFactory = (req: Request) => Context;

/** Methods whose input trpc-to-openapi reads from the query (it takes no body for them). */
const QUERY_METHODS = new Set(['GET', 'DELETE']);

/** The input schema of each GET or DELETE operation, by its method and path pattern: its query is typed from it. */
function getInputsOf(router: AppRouter) {
  return listProcedures(router)
    .filter((e) => QUERY_METHODS.has(e.meta.openapi?.method ?? ''))
    .map((e) => ({
      method: e.meta.openapi!.method as string,
      pattern: new RegExp(`^${e.meta.openapi!.path.replace(/\{[^{}]+\}/g, '[^/]+')}/?$`),
      input: (e.procedure._def as unknown as { inputs: unknown[] }).inputs[0] as Parameters<typeof typedQuery>[0],
    }));
}

/**
 * REST through trpc-to-openapi. Its fetch adapter rebuilds the handler (and, outside production,
 * the whole OpenAPI document) on every request, so we drive its node handler, built once, ourselves.
 * Errors are rendered by the REST renderer: { error: { code, message } } with the table's status and headers.
 */
export function createRestHandler(router: AppRouter, makeContext: ContextFactory) {
  pinCoercion(router);
  const getInputs = getInputsOf(router);
  const contexts = new WeakMap<object, Context>();
  const failures = new WeakMap<object, Failure>();
  const handler = createOpenApiNodeHttpHandler({
    router,
    createContext: ({ req }: { req: object }) => contexts.get(req)!,
    responseMeta: () => ({}),
    onError: ({ error, req }: { error: TRPCError; req: object }) => {
      const ctx = contexts.get(req);
      failures.set(req, failureOf(error, ctx?.requestId ?? 'unknown'));
    },
  }) as (req: unknown, res: unknown) => Promise<void>;
  const records: RestRecords = { failures };

  return async (request: Request): Promise<Response> => {
    const ctx = makeContext(request);
    const url = new URL(request.url);
    url.pathname = url.pathname.slice(REST_PREFIX.length) || '/';
    const body = await readJson(request);
    const get = getInputs.find((g) => g.method === request.method && g.pattern.test(url.pathname));
    const query: unknown = get ? typedQuery(get.input, url.searchParams) : undefined;
    // An empty body has no media type to refuse: trpc-to-openapi wants application/json on every POST, and would
    // answer 415 to a bodiless operation (POST /batches/{id}/cancel) sent, rightly, without a Content-Type.
    const headers = body.ok && body.empty ? withJsonType(request.headers) : request.headers;
    const req = nodeRequest(request, url, body, query, headers);
    contexts.set(req, ctx);
    return runNodeHandler(handler, req, request, ctx, records);
  };
}

function withJsonType(headers: Headers): Headers {
  if (headers.get('content-type')?.startsWith('application/json')) return headers;
  const copy = new Headers(headers);
  copy.set('content-type', 'application/json');
  return copy;
}

async function readJson(request: Request): Promise<JsonBody> {
  if (request.method === 'GET' || request.method === 'HEAD') return { ok: true, value: undefined };
  const text = await requestText(request);
  if (!text) return { ok: true, value: {}, empty: true };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
