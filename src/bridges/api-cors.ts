// CORS for REST and tRPC: pages on the origins the operator lists (API_ALLOWED_ORIGINS) may call them with an OAuth
// access token. No credentials: a listed page never rides on the website's session cookie.
import type { Hono } from 'hono';
import { cors } from 'hono/cors';
import type { Deps } from '../deps.ts';
import { appRouter } from '../router/index.ts';
import { listProcedures } from './procedures.ts';
import type { HttpEnv } from './http-env.ts';
import { REST_PREFIX } from './rest.ts';
import { TRPC_PREFIX } from './trpc-http.ts';

/** What the API serves: tRPC's GET and POST, and each REST operation's method (DELETE /watches/{id}, say). */
const apiMethods = () => [
  ...new Set([
    'GET',
    'POST',
    ...listProcedures(appRouter).flatMap((e) => (e.meta.openapi ? [e.meta.openapi.method.toUpperCase()] : [])),
  ]),
];

export function useApiCors(app: Hono<HttpEnv>, deps: Deps) {
  const listed = new Set(deps.config.API_ALLOWED_ORIGINS.map((o) => new URL(o).origin));
  if (!listed.size) return;
  const policy = cors({
    // An unlisted origin gets no Access-Control-Allow-Origin, so its browser refuses the answer (and the preflight).
    origin: (origin) => (listed.has(origin) ? origin : null),
    allowMethods: [...apiMethods(), 'OPTIONS'],
    allowHeaders: ['authorization', 'content-type', 'trpc-accept'],
    exposeHeaders: ['x-request-id', 'retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'],
    maxAge: 600,
  });
  for (const prefix of [REST_PREFIX, TRPC_PREFIX]) app.use(`${prefix}/*`, policy);
}
