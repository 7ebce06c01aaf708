import { TRPCError } from '@trpc/server';
import type { Context } from '../router/context.ts';
import { failure, failureOf, type Failure } from './errors/failure.ts';
import { restErrorResponse } from './errors/rest-error.ts';
import { rateLimitHeaders } from './response-headers.ts';
import { jsonResponse } from './json-response.ts';

export type JsonBody = { ok: true; value: unknown; empty?: boolean } | { ok: false; empty?: undefined };

/**
 * The fetch Request as the node request trpc-to-openapi reads: the URL without the REST prefix, the typed query, the
 * parsed body (a malformed one refused as it is read).
 */
export function nodeRequest(request: Request, url: URL, body: JsonBody, parsedQuery: unknown, headers: Headers) {
  let query = parsedQuery;
  return new Proxy(request, {
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
}

/** What the handler recorded per request: the failure it met. */
export type RestRecords = { failures: WeakMap<object, Failure> };

/** A REST answer: the serialized procedure answer, with the caller's window and request id. */
function restSuccess(ctx: Context, json: string, headers: Headers, status: number): Response {
  for (const [k, v] of rateLimitHeaders(ctx.out.rateLimit)) headers.set(k, v);
  headers.set('x-request-id', ctx.requestId);
  if (ctx.out.location) headers.set('location', ctx.out.location);
  return jsonResponse(json, { status: ctx.out.status ?? status, headers });
}

/** An answer the handler ended: a success with its headers, or the failure it recorded. */
function finishedAnswer(
  text: string,
  status: number,
  headers: Headers,
  ctx: Context,
  req: object,
  request: Request,
  records: RestRecords,
): Response {
  if (status < 400) return restSuccess(ctx, text, headers, status);
  let f = records.failures.get(req) ?? failure('INTERNAL_ERROR', `Internal error (request ${ctx.requestId})`);
  if (f.code === 'NOT_FOUND' && f.message === 'Not found')
    f = { ...f, message: 'No such route; see /api/v1/openapi.json' };
  return restErrorResponse(f, {
    requestId: ctx.requestId,
    requestHeaders: request.headers,
    rateLimit: ctx.out.rateLimit,
  });
}

/** Runs the node handler on `req` and collects what it writes into a fetch Response. */
export function runNodeHandler(
  handler: (req: unknown, res: unknown) => Promise<void>,
  req: object,
  request: Request,
  ctx: Context,
  records: RestRecords,
): Promise<Response> {
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
        resolve(finishedAnswer(text, status, headers, ctx, req, request, records));
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
}
