import { Hono, type Context as HonoContext } from 'hono';
import { INVALID_PARAMS } from '@modelcontextprotocol/server';
import { unicodeEdge } from './unicode-edge.ts';
import { bodyLimitByHeaders } from './body-limit.ts';
import type { Deps } from '../deps.ts';
import { newId } from '../domain/ids.ts';
import { redactKeys } from '../domain/keys/api-key.ts';
import { accessLog } from '../infra/log/logger.ts';
import type { Context, Surface } from '../router/context.ts';
import { appRouter } from '../router/index.ts';
import { failure, failureOf, internalMessage, type AnswerContext, type Failure } from './errors/failure.ts';
import { answerOf } from './request-answer.ts';
import { mcpErrorResponse } from './mcp/error-response.ts';
import { restErrorResponse } from './errors/rest-error.ts';
import { trpcErrorResponse } from './errors/trpc-error.ts';
import { mountDocs } from './docs-page.ts';
import { mountFavicon } from './favicon.ts';
import { serveFrameImage } from './frame-image-route.ts';
import { mountSignedFrames } from './frame-routes.ts';
import { serveTranscriptFile } from './transcript-file-route.ts';
import { createMcpEndpoint } from './mcp/endpoint.ts';
import { MCP_PATH } from './mcp/path.ts';
import { createStoredAnswers } from './stored-answers/step.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { mountRest } from './rest-mount.ts';
import { REST_PREFIX } from './rest.ts';
import { clientIp } from './client-ip.ts';
import { handleTrpc, TRPC_PREFIX } from './trpc-http.ts';
import { mountWebsite } from './web.ts';
import { mountOpsRoutes } from './ops-routes.ts';
import { mountOAuth } from './oauth/oauth-routes.ts';
import { isOAuthPath } from './oauth/oauth-paths.ts';
import { oauthErrorResponse } from './errors/oauth-error.ts';
import { routePath } from 'hono/route';
import type { HttpEnv } from './http-env.ts';
import { useApiCors } from './api-cors.ts';
import { serverCard } from './mcp/listing.ts';
import { cors } from 'hono/cors';

/** Longest request target (path and query) we read: 16 KiB, far above any real request. */
export const MAX_URL_BYTES = 16 * 1024;

const isTrpcPath = (path: string) => path === TRPC_PREFIX || path.startsWith(`${TRPC_PREFIX}/`);
/** tRPC carries a GET's input as JSON in the query (`?input=`, batched too). */
const jsonQueryParams = (path: string) => (isTrpcPath(path) ? ['input'] : []);

/** A failure the HTTP layer answers itself, rendered in the shape of the surface the path belongs to. */
function renderForPath(path: string, f: Failure, a: AnswerContext, extra: Record<string, string> = {}): Response {
  if (isOAuthPath(path)) return oauthErrorResponse(path, f, a, extra);
  if (path === MCP_PATH) return mcpErrorResponse(f, a, null, extra);
  if (isTrpcPath(path)) return trpcErrorResponse(f, a, extra);
  return restErrorResponse(f, a, extra);
}

type Env = HttpEnv;

/** A refusal of the edge's checks; on MCP it is the request's params that are refused (-32602). */
const renderRefusal = (c: HonoContext<Env>, f: Failure) =>
  c.req.path === MCP_PATH
    ? mcpErrorResponse(f, answerOf(c), null, {}, INVALID_PARAMS)
    : renderForPath(c.req.path, f, answerOf(c));

/** What an app must end before its server can close: the MCP endpoint's open `subscriptions/listen` streams. */
const streamClosers = new WeakMap<Hono<Env>, () => Promise<void>>();

/** Ends an app's long-lived streams (each with its closing message), as a shutdown starts. */
export const closeLongStreams = (app: Hono<Env>): Promise<void> => streamClosers.get(app)?.() ?? Promise.resolve();

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Adds x-request-id to the answer in place. `c.header()` on a finished response would rebuild it around its body as a
 * stream, which then is written chunk by chunk: several times the cost of the request itself for a large answer.
 */
function stampRequestId(c: { res: Response; header(k: string, v: string): void }, requestId: string) {
  try {
    c.res.headers.set('x-request-id', requestId);
  } catch {
    c.header('x-request-id', requestId); // immutable headers (a fetched response): rebuilt
  }
}

type MakeContext = (req: Request, requestId: string, surface: Surface) => Context;

/** Logs each request and counts it by route pattern, and stamps its id on the answer. */
function useRequestLog(app: Hono<Env>, deps: Deps) {
  app.use(async (c, next) => {
    const requestId = newId('req');
    c.set('requestId', requestId);
    const started = performance.now();
    await next();
    stampRequestId(c, requestId);
    // Route patterns, not paths: a bounded set of label values.
    const route = routePath(c, -1);
    const method = KNOWN_METHODS.has(c.req.method) ? c.req.method : 'OTHER';
    deps.metrics?.http.inc({ method, route, status: c.res.status });
    deps.metrics?.httpSeconds.observe({ route }, (performance.now() - started) / 1000);
    accessLog(deps.log).info(
      // Clients do paste keys into URLs; the log keeps only the display prefix.
      {
        reqId: requestId,
        method: c.req.method,
        path: redactKeys(c.req.path),
        status: c.res.status,
        ms: Math.round(performance.now() - started),
      },
      'request',
    );
  });
}

/** Refuses request targets over MAX_URL_BYTES and bodies over MAX_BODY_BYTES, before any route reads them. */
function useSizeLimits(app: Hono<Env>, deps: Deps) {
  app.use(async (c, next) => {
    // The request target as sent (path and query); Node reads up to its header limit, we answer past 16 KiB.
    const url = c.req.url; // absolute: scheme://host[:port]/target
    const slash = url.indexOf('/', url.indexOf('//') + 2);
    const target = slash < 0 ? 0 : url.length - slash;
    if (target > MAX_URL_BYTES) {
      return renderForPath(
        c.req.path,
        failure('URI_TOO_LONG', `Request URLs are limited to ${MAX_URL_BYTES} bytes`),
        answerOf(c),
      );
    }
    await next();
  });
  app.use(
    bodyLimitByHeaders({
      maxSize: deps.config.MAX_BODY_BYTES,
      onError: (c) =>
        // The rest of the body is never read: close the connection, or a client reusing it sees a reset.
        renderForPath(
          c.req.path,
          failure('PAYLOAD_TOO_LARGE', `Request bodies are limited to ${deps.config.MAX_BODY_BYTES} bytes`),
          answerOf(c),
          { connection: 'close' },
        ),
    }),
  );
}

/** The OpenAPI document (built on first ask), the docs page and the favicon. */
function mountDocuments(app: Hono<Env>, deps: Deps) {
  let openapi: unknown;
  const openapiDoc = () => (openapi ??= buildOpenApiDocument(deps.publicUrl));
  app.get(`${REST_PREFIX}/openapi.json`, (c) => c.json(openapiDoc()));
  mountDocs(app, deps.publicUrl);
  mountFavicon(app);
  // SEP-2127: what a client that knows only this host needs to connect; public, so any origin may read it.
  app.get('/.well-known/mcp/server-card.json', cors({ origin: '*' }), (c) => c.json(serverCard(deps.publicUrl)));
}

/** REST routes that answer with files rather than JSON: signed frames, a frame image, a subtitles file. */
function mountFileRoutes(app: Hono<Env>, deps: Deps, makeContext: MakeContext) {
  mountSignedFrames(app, deps);
  app.get(`${REST_PREFIX}/videos/:videoId/frame`, (c) =>
    serveFrameImage(makeContext(c.req.raw, c.get('requestId'), 'rest'), c.req.param('videoId'), c.req.query()),
  );
  app.get(`${REST_PREFIX}/videos/:videoId/subtitles`, (c) =>
    serveTranscriptFile(makeContext(c.req.raw, c.get('requestId'), 'rest'), c.req.param('videoId'), c.req.query()),
  );
}

/** The router's three projections: REST, tRPC and MCP, behind the one step that writes stored answers. */
function mountProcedureSurfaces(app: Hono<Env>, deps: Deps, makeContext: MakeContext, earlyReads = true) {
  // A quarter of the cache budget holds written answers, half of it REST and tRPC answers, half the text of MCP tool
  // results showing stored pages (an MCP answer carries the call's id: never the same twice); the transcripts
  // themselves take the rest (src/build-deps.ts).
  const renderedBytes = Math.floor((deps.config.CACHE_MAX_MB * 1024 * 1024) / 8);
  const contextOf = (c: HonoContext<Env>, surface: Surface) => {
    const ctx = makeContext(c.req.raw, c.get('requestId'), surface);
    if (surface === 'trpc') ctx.clientIp ??= clientIp(c, deps.config.TRUST_PROXY);
    return ctx;
  };
  // `earlyReads: false` leaves every call to the frameworks (the equivalence test compares both).
  const answers = createStoredAnswers(appRouter, contextOf, { early: earlyReads, cacheBytes: renderedBytes });
  app.use(answers.step);
  const handleMcp = createMcpEndpoint(deps.log, answers.tools);
  streamClosers.set(app, handleMcp.close);
  mountRest(app, (req, requestId) => makeContext(req, requestId, 'rest'));
  app.all(`${TRPC_PREFIX}/*`, (c) => handleTrpc(c.req.raw, contextOf(c, 'trpc')));
  app.all(MCP_PATH, (c) => handleMcp(c.req.raw, contextOf(c, 'mcp')));
}

/** Unknown routes and thrown errors, answered in the shape of the path's surface; internal details logged only. */
function handleLeftovers(app: Hono<Env>, deps: Deps) {
  app.notFound((c) => restErrorResponse(failure('NOT_FOUND', `No route ${c.req.path}`), answerOf(c)));
  app.onError((err, c) => {
    const f = failureOf(err, c.get('requestId'));
    if (f.code === 'INTERNAL_ERROR') deps.log.error({ err, reqId: c.get('requestId') }, 'unhandled error');
    return renderForPath(
      c.req.path,
      f.code === 'INTERNAL_ERROR' ? { ...f, message: internalMessage(c.get('requestId')) } : f,
      answerOf(c),
    );
  });
}

/** All HTTP surfaces of one router: REST, tRPC, MCP, docs and health. */
export function createHttpApp(deps: Deps, extra?: (app: Hono<Env>) => void, options: { earlyReads?: boolean } = {}) {
  const app = new Hono<Env>();
  // One context per request and surface: a step before the surface (stored answers) and the surface share it.
  const contexts = new WeakMap<Request, Context>();
  const makeContext: MakeContext = (req, requestId, surface) => {
    const known = contexts.get(req);
    if (known?.surface === surface) return known;
    const ctx: Context = {
      deps,
      requestId,
      surface,
      headers: req.headers,
      log: deps.log.child({ reqId: requestId }),
      signal: req.signal,
      out: {},
    };
    contexts.set(req, ctx);
    return ctx;
  };
  useRequestLog(app, deps);
  // Before the edge's own refusals (size, Unicode): a listed page must be able to read those too.
  useApiCors(app, deps);
  useSizeLimits(app, deps);
  app.use(unicodeEdge(renderRefusal, jsonQueryParams));
  mountOpsRoutes(app, deps, 'main');
  mountDocuments(app, deps);
  extra?.(app);
  mountFileRoutes(app, deps, makeContext);
  mountProcedureSurfaces(app, deps, makeContext, options.earlyReads !== false);
  mountOAuth(app, deps);
  mountWebsite(app, deps);
  handleLeftovers(app, deps);
  return app;
}
