import type { Hono } from 'hono';
import type { Context } from '../router/context.ts';
import { appRouter } from '../router/index.ts';
import { newId } from '../domain/ids.ts';
import { failure } from './errors/failure.ts';
import { restErrorResponse } from './errors/rest-error.ts';
import type { HttpEnv } from './http-env.ts';
import { EXTRA_REST_ROUTES } from './openapi-extra-paths.ts';
import { answerOf } from './request-answer.ts';
import { restRouteTable } from './rest-routes.ts';
import { createRestHandler, REST_PREFIX } from './rest.ts';

/** Mounts the REST surface: unknown paths and methods answered here, the rest handed to trpc-to-openapi. */
export function mountRest(app: Hono<HttpEnv>, restContext: (req: Request, requestId: string) => Context) {
  const rest = createRestHandler(appRouter, (req) => restContext(req, currentRequestId(req)));
  const routes = restRouteTable(appRouter, EXTRA_REST_ROUTES);
  const ids = new WeakMap<Request, string>();
  const currentRequestId = (req: Request) => ids.get(req) ?? newId('req');
  app.all(`${REST_PREFIX}/*`, async (c) => {
    const path = c.req.path.slice(REST_PREFIX.length);
    const allowed = routes.methodsFor(path);
    if (allowed.length === 0)
      return restErrorResponse(
        failure('NOT_FOUND', `No route ${c.req.path}; see ${REST_PREFIX}/openapi.json`),
        answerOf(c),
      );
    if (!allowed.includes(c.req.method)) {
      return restErrorResponse(
        failure('METHOD_NOT_ALLOWED', `${c.req.path} accepts ${allowed.join(', ')}`),
        answerOf(c),
        { allow: allowed.join(', ') },
      );
    }
    if (c.req.method === 'HEAD') {
      // trpc-to-openapi answers HEAD with an empty 204 without running the procedure (no key check, no limit):
      // answer it as the GET it stands for, without the body (RFC 9110 9.3.2).
      const get = new Request(c.req.raw.url, { method: 'GET', headers: c.req.raw.headers, signal: c.req.raw.signal });
      ids.set(get, c.get('requestId'));
      const res = await rest(get);
      return new Response(null, { status: res.status, headers: res.headers });
    }
    ids.set(c.req.raw, c.get('requestId'));
    return rest(c.req.raw);
  });
}
