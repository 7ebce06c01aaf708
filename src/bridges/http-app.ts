import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Deps } from '../deps.ts';
import { newId } from '../domain/ids.ts';
import { redactKeys } from '../domain/keys/api-key.ts';
import type { Context, Surface } from '../router/context.ts';
import { isDatabaseDown } from '../../db/database-errors.ts';
import { errorBody } from '../router/error-table.ts';
import { appRouter } from '../router/index.ts';
import { renderDocsPage } from './docs-page.ts';
import { serveFrameImage } from './frame-image-route.ts';
import { mountSignedFrames } from './frame-routes.ts';
import { serveSubtitlesFile } from './subtitles-file-route.ts';
import { EXTRA_REST_ROUTES } from './openapi-extra-paths.ts';
import { handleMcp } from './mcp.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { restRouteTable } from './rest-routes.ts';
import { createRestHandler, REST_PREFIX } from './rest.ts';
import { rateLimitHeaders } from './response-headers.ts';
import { clientIp } from './client-ip.ts';
import { mountWebsite } from './web.ts';

type Env = { Variables: { requestId: string } };

/** All HTTP surfaces of one router: REST, tRPC, MCP, docs and health. */
export function createHttpApp(deps: Deps, extra?: (app: Hono<Env>) => void) {
  const app = new Hono<Env>();
  const makeContext = (req: Request, requestId: string, surface: Surface): Context => ({
    deps,
    requestId,
    surface,
    headers: req.headers,
    log: deps.log.child({ reqId: requestId }),
    signal: req.signal,
    caller: null,
    out: {},
  });

  app.use(async (c, next) => {
    const requestId = newId('req');
    c.set('requestId', requestId);
    const started = performance.now();
    await next();
    c.header('x-request-id', requestId);
    deps.log.info(
      // Clients do paste keys into URLs; the log keeps only the display prefix.
      { reqId: requestId, method: c.req.method, path: redactKeys(c.req.path), status: c.res.status, ms: Math.round(performance.now() - started) },
      'request',
    );
  });
  app.use(
    bodyLimit({
      maxSize: deps.config.MAX_BODY_BYTES,
      onError: (c) => {
        // The rest of the body is never read: close the connection, or a client reusing it sees a reset.
        c.header('Connection', 'close');
        return c.json(errorBody('PAYLOAD_TOO_LARGE', `Request bodies are limited to ${deps.config.MAX_BODY_BYTES} bytes`), 413);
      },
    }),
  );

  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', async (c) => {
    try {
      await deps.sql`select 1`;
      return c.json({ status: 'ready' });
    } catch {
      return c.json(errorBody('SERVICE_BUSY', 'Database unreachable'), 503);
    }
  });

  let openapi: unknown;
  const openapiDoc = () => (openapi ??= buildOpenApiDocument(deps.publicUrl));
  app.get(`${REST_PREFIX}/openapi.json`, (c) => c.json(openapiDoc()));
  app.get('/docs', (c) => c.html(renderDocsPage(openapiDoc())));

  extra?.(app);
  mountSignedFrames(app, deps);
  app.get(`${REST_PREFIX}/videos/:videoId/frame`, (c) =>
    serveFrameImage(makeContext(c.req.raw, c.get('requestId'), 'rest'), c.req.param('videoId'), c.req.query()),
  );
  app.get(`${REST_PREFIX}/videos/:videoId/subtitles`, (c) =>
    serveSubtitlesFile(makeContext(c.req.raw, c.get('requestId'), 'rest'), c.req.param('videoId'), c.req.query()),
  );

  const rest = createRestHandler(appRouter, (req) => makeContext(req, currentRequestId(req), 'rest'));
  const routes = restRouteTable(appRouter, EXTRA_REST_ROUTES);
  const ids = new WeakMap<Request, string>();
  const currentRequestId = (req: Request) => ids.get(req) ?? newId('req');
  app.all(`${REST_PREFIX}/*`, async (c) => {
    const path = c.req.path.slice(REST_PREFIX.length);
    const allowed = routes.methodsFor(path);
    if (allowed.length === 0) return c.json(errorBody('NOT_FOUND', `No route ${c.req.path}; see ${REST_PREFIX}/openapi.json`), 404);
    if (!allowed.includes(c.req.method)) {
      c.header('Allow', allowed.join(', '));
      return c.json(errorBody('METHOD_NOT_ALLOWED', `${c.req.path} accepts ${allowed.join(', ')}`), 405);
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

  app.all('/trpc/*', async (c) => {
    const ctx = { ...makeContext(c.req.raw, c.get('requestId'), 'trpc'), clientIp: clientIp(c, deps.config.TRUST_PROXY) };
    const res = await fetchRequestHandler({
      endpoint: '/trpc',
      req: c.req.raw,
      router: appRouter,
      createContext: () => ctx,
      responseMeta: () => {
        const headers = new Headers(rateLimitHeaders(ctx.out.rateLimit));
        // Answers may carry a session cookie or a CSRF token: never stored by a cache.
        headers.set('cache-control', 'no-store');
        for (const cookie of ctx.out.setCookies ?? []) headers.append('set-cookie', cookie);
        return { headers };
      },
    });
    return res;
  });

  app.all('/mcp', async (c) => handleMcp(c.req.raw, makeContext(c.req.raw, c.get('requestId'), 'mcp')));

  mountWebsite(app, deps);

  app.notFound((c) => c.json(errorBody('NOT_FOUND', `No route ${c.req.path}`), 404));
  app.onError((err, c) => {
    if (isDatabaseDown(err)) {
      c.header('retry-after', '5');
      return c.json(errorBody('SERVICE_BUSY', 'The service is briefly unavailable; retry in a few seconds'), 503);
    }
    deps.log.error({ err, reqId: c.get('requestId') }, 'unhandled error');
    return c.json(errorBody('INTERNAL_ERROR', `Internal error (request ${c.get('requestId')})`), 500);
  });
  return app;
}
