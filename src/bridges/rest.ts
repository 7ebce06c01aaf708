import { TRPCError } from '@trpc/server';
import { createOpenApiNodeHttpHandler } from 'trpc-to-openapi';
import type { ErrorCode } from '../domain/errors.ts';
import type { AppRouter } from '../router/index.ts';
import { ERROR_TABLE, errorBody } from '../router/error-table.ts';
import type { Context } from '../router/context.ts';
import { rateLimitHeaders } from './response-headers.ts';

export const REST_PREFIX = '/api/v1';

type ContextFactory = (req: Request) => Context;

/**
 * REST through trpc-to-openapi. Its fetch adapter rebuilds the handler (and, outside production,
 * the whole OpenAPI document) on every request, so we drive its node handler, built once, ourselves.
 * Error bodies are rewritten to the spec's { error: { code, message } } with the table's status.
 */
export function createRestHandler(router: AppRouter, makeContext: ContextFactory) {
  const contexts = new WeakMap<object, Context>();
  const handler = createOpenApiNodeHttpHandler({
    router,
    createContext: ({ req }: { req: object }) => contexts.get(req)!,
  } as never) as (req: unknown, res: unknown) => Promise<void>;

  return async (request: Request): Promise<Response> => {
    const ctx = makeContext(request);
    const url = new URL(request.url);
    url.pathname = url.pathname.slice(REST_PREFIX.length) || '/';
    const body = await readJson(request);
    const req = new Proxy(request, {
      get(target, prop) {
        if (prop === 'url') return url.toString();
        if (prop === 'body') {
          if (!body.ok) throw new TRPCError({ code: 'PARSE_ERROR', message: 'Malformed JSON body' });
          return body.value;
        }
        const value = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    contexts.set(req, ctx);

    return new Promise<Response>((resolve) => {
      const headers = new Headers();
      let status = 200;
      const res = {
        setHeader: (k: string, v: string | string[]) => (Array.isArray(v) ? v.forEach((x) => headers.append(k, x)) : headers.set(k, v)),
        get statusCode() {
          return status;
        },
        set statusCode(s: number) {
          status = s;
        },
        end: (text: string) => {
          for (const [k, v] of rateLimitHeaders(ctx.out.rateLimit)) headers.set(k, v);
          headers.set('x-request-id', ctx.requestId);
          if (status < 400) {
            if (ctx.out.location) headers.set('location', ctx.out.location);
            resolve(new Response(text, { status: ctx.out.status ?? status, headers }));
            return;
          }
          resolve(errorResponse(text, ctx, headers));
        },
      };
      handler(req, res).catch((err) => {
        ctx.log.error({ err }, 'rest adapter failure');
        resolve(Response.json(errorBody('INTERNAL_ERROR', `Internal error (request ${ctx.requestId})`), { status: 500 }));
      });
    });
  };
}

function errorResponse(text: string, ctx: Context, headers: Headers): Response {
  let parsed: { message?: string; data?: { code?: ErrorCode }; issues?: { path: PropertyKey[]; message: string }[] } = {};
  try {
    parsed = JSON.parse(text);
  } catch {
    /* keep the defaults */
  }
  const code: ErrorCode = parsed.data?.code ?? 'INTERNAL_ERROR';
  let message = parsed.message ?? 'Request failed';
  if (parsed.issues?.length) {
    message = parsed.issues
      .slice(0, 5)
      .map((i) => (i.path.length ? `${i.path.map(String).join('.')}: ${i.message}` : i.message))
      .join('; ');
  }
  if (code === 'INTERNAL_ERROR') message = `Internal error (request ${ctx.requestId})`;
  if (code === 'NOT_FOUND' && message === 'Not found') message = 'No such route; see /api/v1/openapi.json';
  headers.set('content-type', 'application/json');
  const retryAfter = code === 'RATE_LIMITED' ? ctx.out.rateLimit?.reset : code === 'SERVICE_BUSY' ? 5 : undefined;
  if (retryAfter) headers.set('retry-after', String(retryAfter));
  return new Response(JSON.stringify(errorBody(code, message)), { status: ERROR_TABLE[code].status, headers });
}

async function readJson(request: Request): Promise<{ ok: true; value: unknown } | { ok: false }> {
  if (request.method === 'GET' || request.method === 'HEAD') return { ok: true, value: undefined };
  const text = await request.text();
  if (!text) return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
