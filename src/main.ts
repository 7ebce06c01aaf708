import { serve } from '@hono/node-server';
import { buildDeps } from './build-deps.ts';
import { createHttpApp } from './bridges/http-app.ts';
import { ConfigError, parseConfig } from './config.ts';
import { createLogger } from './infra/log/logger.ts';
import { startWorkers } from './jobs/start-workers.ts';

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

  let server: ReturnType<typeof serve> | undefined;
  if (config.MODE !== 'worker') {
    const app = createHttpApp(deps);
    server = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, (info) => {
      log.info({ port: info.port, mode: config.MODE }, `Subtext listening on http://localhost:${info.port}`);
    });
  } else {
    log.info('Subtext worker running');
  }

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: finishing in-flight requests and jobs');
    // Stop accepting; in-flight requests finish before close() calls back.
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
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
