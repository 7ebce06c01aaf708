import { createServer as createProbe, type AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { buildDeps, type Runtime } from './build-deps.ts';
import { closeLongStreams, createHttpApp } from './bridges/http-app.ts';
import { serveHttp } from './bridges/http-server.ts';
import { createOpsApp } from './bridges/ops-routes.ts';
import { ConfigError, parseConfig, type Config } from './config.ts';
import { explainStartFailure } from './infra/start-failure.ts';
import { createLogger, type Logger } from './infra/log/logger.ts';
import { releaseMemoryWhenIdle } from './infra/memory/release-when-idle.ts';
import { startWorkers } from './jobs/start-workers.ts';
import type { HttpEnv } from './bridges/http-env.ts';

/**
 * How long a stopping instance lets its running jobs finish before pg-boss hands them to another worker. Under the
 * 30 s an orchestrator usually allows between SIGTERM and SIGKILL (Kubernetes' terminationGracePeriodSeconds).
 */
const JOB_DRAIN_MS = 20_000;

/** After a crash, how long closing pools and the embedded database may take before the process exits anyway. */
const CRASH_CLOSE_MS = 10_000;

/** The composition root: config, dependencies, then the HTTP API and/or the job workers (MODE). */
async function main() {
  let config: Config;
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
  const servesHttp = config.MODE !== 'worker';

  let runtime: Runtime | undefined;
  let server: Server | undefined;
  let opsServer: Server | undefined;
  let closeStreams = () => Promise.resolve();
  try {
    // A taken port is known before the database starts: fail in a moment rather than after it.
    if (servesHttp) await probePort(config);
    runtime = await buildDeps(config, log);
    await startWorkers(runtime.deps, { work: config.MODE !== 'api' });
    if (servesHttp) {
      const app = createHttpApp(runtime.deps);
      closeStreams = () => closeLongStreams(app);
      server = await listen(app, config);
      releaseMemoryWhenIdle(server);
    }
    // Metrics and probes on a port of their own: kept off the public listener, and the only HTTP a worker serves.
    if (config.METRICS_PORT)
      opsServer = await listen(createOpsApp(runtime.deps), { ...config, PORT: config.METRICS_PORT });
  } catch (err) {
    // Whatever started (pools, the embedded database) is stopped: a failed start leaves nothing running.
    await runtime?.close().catch(() => {});
    failStart(err, config, log);
  }
  if (server) {
    const { port } = server.address() as AddressInfo; // PORT=0 picks a free one
    log.info({ port, mode: config.MODE, pid: process.pid }, `Subtext listening on http://localhost:${port}`);
  } else {
    log.info({ mode: config.MODE, pid: process.pid }, 'Subtext worker running');
  }
  if (opsServer) log.info({ port: (opsServer.address() as AddressInfo).port }, 'metrics and probes listening');
  handleSignals(runtime!, { server, opsServer, closeStreams }, config, log);
  handleCrash(runtime!, log);
}

function probePort(config: Config): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createProbe();
    probe.once('error', reject);
    probe.listen(config.PORT, config.HOST, () => probe.close(() => resolve()));
  });
}

function listen(app: import('hono').Hono<HttpEnv>, config: Config): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = serveHttp(app, { port: config.PORT, hostname: config.HOST }, () => {
      server.off('error', reject);
      resolve(server);
    });
    server.once('error', reject);
  });
}

/** One sentence on stderr (a stack only for unexpected errors at LOG_LEVEL=debug), exit 1. */
function failStart(err: unknown, config: Config, log: Logger): never {
  const { message, known } = explainStartFailure(err, { databaseUrl: config.DATABASE_URL, port: config.PORT });
  console.error(message);
  if (!known) {
    if (log.isLevelEnabled('debug')) console.error(err);
    else console.error('(Set LOG_LEVEL=debug to print the stack trace.)');
  }
  process.exit(1);
}

function handleSignals(
  runtime: Runtime,
  http: { server: Server | undefined; opsServer: Server | undefined; closeStreams: () => Promise<void> },
  config: Config,
  log: Logger,
) {
  const { server, opsServer } = http;
  let stopping = false;
  const shutdown = async (signal: string) => {
    // `npm start` forwards the signal it gets, so a signal sent to the process group arrives here twice.
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: finishing in-flight requests and jobs');
    // MCP listen streams never end by themselves: each gets its closing result now, or close() would wait for them.
    await http.closeStreams().catch((err: unknown) => log.warn({ err }, 'could not close MCP listen streams'));
    // Both at once, so the two waits overlap rather than add up:
    // - HTTP: the listener closes (new connections are refused), idle keep-alive connections are closed, and
    //   close() calls back once every in-flight request has been answered. A request waits for its job at most
    //   REQUEST_WAIT_MS, so past that (plus a margin) whatever connection is left is cut.
    // - Jobs: the workers stop claiming at once (a draining instance should not take work another instance could
    //   finish), finish what they hold within JOB_DRAIN_MS, and pg-boss hands back what is still running.
    const answered = new Promise<void>((resolve) => {
      if (!server) return resolve();
      const cut = setTimeout(() => server.closeAllConnections(), config.REQUEST_WAIT_MS + 10_000);
      server.close(() => {
        clearTimeout(cut);
        resolve();
      });
      server.closeIdleConnections();
    });
    await Promise.all([
      answered,
      runtime.drainJobs(JOB_DRAIN_MS).catch((err: unknown) => log.warn({ err }, 'job queue did not drain')),
    ]);
    // Last: while draining, /readyz on it answers 503 (queue stopped) rather than refusing connections.
    opsServer?.close();
    await runtime.close();
    log.info('stopped');
    process.exit(0);
  };
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => void shutdown(signal));
}

/** A crash still stops the embedded database (and closes the pools), within a deadline, then exits 1. */
function handleCrash(runtime: Runtime, log: Logger) {
  let crashed = false;
  process.on('uncaughtException', (err) => {
    log.fatal({ err }, 'crashed');
    if (crashed) return;
    crashed = true;
    setTimeout(() => process.exit(1), CRASH_CLOSE_MS).unref();
    void runtime
      .close()
      .catch(() => {})
      .finally(() => process.exit(1));
  });
}

main().catch((err) => {
  // Only reached by a bug in main itself (failures to start are handled above).
  console.error(err);
  process.exit(1);
});
