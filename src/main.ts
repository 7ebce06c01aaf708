import { serve } from '@hono/node-server';
import { buildDeps } from './build-deps.ts';
import { createHttpApp } from './bridges/http-app.ts';
import { serveHttp } from './bridges/http-server.ts';
import { createOpsApp } from './bridges/ops-routes.ts';
import { ConfigError, parseConfig } from './config.ts';
import { createLogger } from './infra/log/logger.ts';
import { startWorkers } from './jobs/start-workers.ts';

/**
 * How long a stopping instance lets its running jobs finish before pg-boss hands them to another worker. Under the
 * 30 s an orchestrator usually allows between SIGTERM and SIGKILL (Kubernetes' terminationGracePeriodSeconds).
 */
const JOB_DRAIN_MS = 20_000;

/** The composition root: config, dependencies, then the HTTP API and/or the job workers (MODE). */
async function main() {
  let config;
  try {
    config = parseConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const log = createLogger(config.LOG_LEVEL);
  const runtime = await buildDeps(config, log);
  const { deps } = runtime;
  await startWorkers(deps, { work: config.MODE !== 'api' });

  let server: ReturnType<typeof serveHttp> | undefined;
  if (config.MODE !== 'worker') {
    const app = createHttpApp(deps);
    server = serveHttp(app, { port: config.PORT, hostname: config.HOST }, (info) => {
      log.info({ port: info.port, mode: config.MODE }, `Subtext listening on http://localhost:${info.port}`);
    });
  } else {
    log.info('Subtext worker running');
  }
  // Metrics and probes on a port of their own: kept off the public listener, and the only HTTP a worker serves.
  let opsServer: ReturnType<typeof serve> | undefined;
  if (config.METRICS_PORT) {
    opsServer = serve({ fetch: createOpsApp(deps).fetch, port: config.METRICS_PORT, hostname: config.HOST }, (info) => {
      log.info({ port: info.port }, 'metrics and probes listening');
    });
  }

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: finishing in-flight requests and jobs');
    // Both at once, so the two waits overlap rather than add up:
    // - HTTP: the listener closes (new connections are refused), idle keep-alive connections are closed, and
    //   close() calls back once every in-flight request has been answered. A request waits for its job at most
    //   REQUEST_WAIT_MS, so past that (plus a margin) whatever connection is left is cut.
    // - Jobs: the workers stop claiming at once (a draining instance should not take work another instance could
    //   finish), finish what they hold within JOB_DRAIN_MS, and pg-boss hands back what is still running.
    const http = new Promise<void>((resolve) => {
      if (!server) return resolve();
      const s = server as import('node:http').Server;
      const cut = setTimeout(() => s.closeAllConnections(), config.REQUEST_WAIT_MS + 10_000);
      s.close(() => (clearTimeout(cut), resolve()));
      s.closeIdleConnections();
    });
    await Promise.all([http, runtime.drainJobs(JOB_DRAIN_MS).catch((err: unknown) => log.warn({ err }, 'job queue did not drain'))]);
    // Last: while draining, /readyz on it answers 503 (queue stopped) rather than refusing connections.
    (opsServer as import('node:http').Server | undefined)?.close();
    await runtime.close();
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
