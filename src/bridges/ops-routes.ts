import { createHash, timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import type { Deps } from '../deps.ts';
import { errorBody } from '../router/error-table.ts';
import { checkReadiness } from './readiness.ts';
import type { HttpEnv } from './http-env.ts';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Constant-time comparison of the bearer token (hashed first, so lengths never differ). */
function tokenMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
  return !!given && timingSafeEqual(digest(given), digest(token));
}

/**
 * /healthz (the process answers), /readyz (it can do its work) and /metrics. On the main port /metrics exists only
 * with METRICS_TOKEN (and wants it as a bearer token); on METRICS_PORT it is served as well, with the token
 * required when one is set.
 */
export function mountOpsRoutes(app: Hono<HttpEnv>, deps: Deps, where: 'main' | 'metrics-port') {
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', async (c) => {
    const r = await checkReadiness(deps);
    c.header('cache-control', 'no-store');
    if (r.ready) return c.json({ status: 'ready', checks: r.checks });
    const failing = Object.entries(r.checks)
      .filter(([, v]) => v !== 'ok')
      .map(([k, v]) => `${k}: ${v}`);
    return c.json({ ...errorBody('SERVICE_BUSY', `Not ready (${failing.join('; ')})`), checks: r.checks }, 503);
  });

  const token = deps.config.METRICS_TOKEN;
  if (where === 'main' && !token) return; // /metrics falls through to 404
  app.get('/metrics', async (c) => {
    if (token && !tokenMatches(c.req.header('authorization'), token)) {
      c.header('www-authenticate', 'Bearer realm="metrics"');
      return c.json(
        errorBody('UNAUTHENTICATED', 'Send the metrics token: "Authorization: Bearer <METRICS_TOKEN>"'),
        401,
      );
    }
    const registry = deps.metrics.registry;
    return c.body(await registry.metrics(), 200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
  });
}

/** The separate listener on METRICS_PORT (also run by MODE=worker, which has no other HTTP server). */
export function createOpsApp(deps: Deps) {
  const app = new Hono<HttpEnv>();
  mountOpsRoutes(app, deps, 'metrics-port');
  app.notFound((c) => c.json(errorBody('NOT_FOUND', `No route ${c.req.path}`), 404));
  return app;
}
