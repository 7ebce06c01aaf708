import { TRPCError } from '@trpc/server';
import { createOpenApiNodeHttpHandler } from 'trpc-to-openapi';
import type { AppRouter } from '../router/index.ts';
import type { Context } from '../router/context.ts';
import { failure, failureOf, type Failure } from './errors/failure.ts';
import { restErrorResponse } from './errors/rest-error.ts';
import { listProcedures } from './procedures.ts';
import { rateLimitHeaders } from './response-headers.ts';
import { pinCoercion, typedQuery } from './rest-query.ts';
import type { StoredPart } from '../domain/stored-json.ts';
import { storedPartsOf, type StoredAnswers } from './stored-output.ts';

export const REST_PREFIX = '/api/v1';

type ContextFactory = (req: Request) => Context;

/**
 * REST through trpc-to-openapi. Its fetch adapter rebuilds the handler (and, outside production,
 * the whole OpenAPI document) on every request, so we drive its node handler, built once, ourselves.
 * Errors are rendered by the REST renderer: { error: { code, message } } with the table's status and headers.
 */
export function createRestHandler(router: AppRouter, makeContext: ContextFactory, stored: StoredAnswers) {
  pinCoercion(router);
  const getInputs = listProcedures(router)
    .filter((e) => e.meta.openapi?.method === 'GET')
    .map((e) => ({
      pattern: new RegExp(`^${e.meta.openapi!.path.replace(/\{[^{}]+\}/g, '[^/]+')}/?$`),
      input: (e.procedure._def as unknown as { inputs: unknown[] }).inputs[0] as Parameters<typeof typedQuery>[0],
    }));
  const contexts = new WeakMap<object, Context>();
  const failures = new WeakMap<object, Failure>();
  /** A stored part an answer carries, found where trpc-to-openapi hands the answer over before serializing it. */
  const parts = new WeakMap<object, StoredPart[]>();
  const handler = createOpenApiNodeHttpHandler({
    router,
    createContext: ({ req }: { req: object }) => contexts.get(req)!,
    responseMeta: ({ ctx, data }: { ctx?: object; data: unknown[] }) => {
      if (ctx) parts.set(ctx, storedPartsOf(data));
      return {};
    },
    onError: ({ error, req }: { error: TRPCError; req: object }) => {
      const ctx = contexts.get(req);
      failures.set(req, failureOf(error, ctx?.requestId ?? 'unknown'));
    },
  }) as (req: unknown, res: unknown) => Promise<void>;

  return async (request: Request): Promise<Response> => {
    const ctx = makeContext(request);
    const url = new URL(request.url);
    url.pathname = url.pathname.slice(REST_PREFIX.length) || '/';
    const body = await readJson(request);
    const get = request.method === 'GET' ? getInputs.find((g) => g.pattern.test(url.pathname)) : undefined;
    let query: unknown = get ? typedQuery(get.input, url.searchParams) : undefined;
    // An empty body has no media type to refuse: trpc-to-openapi wants application/json on every POST, and would
    // answer 415 to a bodiless operation (POST /batches/{id}/cancel) sent, rightly, without a Content-Type.
    const headers = body.ok && body.empty ? withJsonType(request.headers) : request.headers;
    const req = new Proxy(request, {
      get(target, prop) {
        if (prop === 'url') return url.toString();
        if (prop === 'query') return query;
        if (prop === 'headers') return headers;
        if (prop === 'body') {
          if (!body.ok) throw new TRPCError({ code: 'PARSE_ERROR', message: 'Malformed JSON body' });
          return body.value;
        }
        const value = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
      set(target, prop, value) {
        // trpc-to-openapi caches what it parsed on the request; keep it here, never on the shared Request.
        if (prop === 'query') query = value;
        else if (prop !== 'body') Reflect.set(target, prop, value);
        return true;
      },
    });
    contexts.set(req, ctx);

    return new Promise<Response>((resolve) => {
      const headers = new Headers();
      let status = 200;
      const res = {
        setHeader: (k: string, v: string | string[]) => {
          if (!Array.isArray(v)) return headers.set(k, v);
          for (const x of v) headers.append(k, x);
        },
        get statusCode() {
          return status;
        },
        set statusCode(s: number) {
          status = s;
        },
        end: (text: string) => {
          if (status < 400) {
            for (const [k, v] of rateLimitHeaders(ctx.out.rateLimit)) headers.set(k, v);
            headers.set('x-request-id', ctx.requestId);
            if (ctx.out.location) headers.set('location', ctx.out.location);
            const body = stored.write(text, parts.get(ctx) ?? []);
            resolve(new Response(body, { status: ctx.out.status ?? status, headers }));
            return;
          }
          let f = failures.get(req) ?? failure('INTERNAL_ERROR', `Internal error (request ${ctx.requestId})`);
          if (f.code === 'NOT_FOUND' && f.message === 'Not found')
            f = { ...f, message: 'No such route; see /api/v1/openapi.json' };
          resolve(
            restErrorResponse(f, {
              requestId: ctx.requestId,
              requestHeaders: request.headers,
              rateLimit: ctx.out.rateLimit,
            }),
          );
        },
      };
      handler(req, res).catch((err) => {
        ctx.log.error({ err }, 'rest adapter failure');
        resolve(
          restErrorResponse(failureOf(err, ctx.requestId), {
            requestId: ctx.requestId,
            requestHeaders: request.headers,
          }),
        );
      });
    });
  };
}

function withJsonType(headers: Headers): Headers {
  if (headers.get('content-type')?.startsWith('application/json')) return headers;
  const copy = new Headers(headers);
  copy.set('content-type', 'application/json');
  return copy;
}

async function readJson(
  request: Request,
): Promise<{ ok: true; value: unknown; empty?: boolean } | { ok: false; empty?: undefined }> {
  if (request.method === 'GET' || request.method === 'HEAD') return { ok: true, value: undefined };
  const text = await request.text();
  if (!text) return { ok: true, value: {}, empty: true };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
