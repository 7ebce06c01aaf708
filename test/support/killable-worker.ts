// A worker instance (MODE=worker: the queues' handlers, no HTTP) in this process whose every database connection goes
// through a TCP relay this harness owns, so it can be killed abruptly at any point: `kill()` cuts every connection at
// once and refuses new ones. From then on nothing it runs can write (a transaction in flight is rolled back by the
// server, a job it holds gets no heartbeat and no outcome), as when its process is SIGKILLed; pg-boss on another
// instance retries its jobs once their heartbeat is stale. What the dead instance still runs in memory fails against
// the cut relay and is closed in the background.
import net from 'node:net';
import { buildDeps, type Runtime } from '../../src/build-deps.ts';
import { parseConfig } from '../../src/config.ts';
import type { Deps } from '../../src/deps.ts';
import { createLogger } from '../../src/infra/log/logger.ts';
import { startWorkers } from '../../src/jobs/start-workers.ts';

export interface KillableWorker {
  deps: Deps;
  /** Cuts every database connection of the instance and refuses new ones; resolves once they are cut. */
  kill(): Promise<void>;
  /** Stops it gracefully (what a test does at its end). */
  close(): Promise<void>;
}

export async function startKillableWorker(
  databaseUrl: string,
  env: Record<string, string>,
  overrides: Partial<Deps> = {},
): Promise<KillableWorker> {
  const relay = await startRelay(new URL(databaseUrl));
  const url = new URL(databaseUrl);
  url.host = `127.0.0.1:${relay.port}`;
  const config = parseConfig({
    DAILY_FREE_CREDITS: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    STT_ENGINE: 'off',
    ...env,
    MODE: 'worker',
    DATABASE_URL: url.toString(),
    PORT: '0',
  });
  let runtime: Runtime | undefined;
  try {
    runtime = await buildDeps(config, createLogger(config.LOG_LEVEL), overrides);
    await startWorkers(runtime.deps, { work: true });
  } catch (err) {
    // Cut first and do not wait: a pg-boss that never started may never finish stopping.
    relay.cut();
    void runtime?.close().catch(() => {});
    throw err;
  }
  const rt = runtime;
  let dead = false;
  return {
    deps: rt.deps,
    async kill() {
      if (dead) return;
      dead = true;
      relay.cut();
      // What it had in flight fails on the cut relay; its pools and timers are stopped without waiting for that.
      void rt.close().catch(() => {});
    },
    async close() {
      if (dead) return;
      dead = true;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((r) => (timer = setTimeout(r, 30_000)));
      await Promise.race([rt.close().catch(() => {}), late]);
      clearTimeout(timer);
      relay.cut();
    },
  };
}

/** A TCP relay to `target` on a loopback port; `cut()` destroys every connection and stops accepting. */
async function startRelay(target: URL): Promise<{ port: number; cut(): void }> {
  const sockets = new Set<net.Socket>();
  let cut = false;
  const server = net.createServer((client) => {
    if (cut) return client.destroy();
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    cut() {
      cut = true;
      server.close();
      for (const s of sockets) s.destroy();
    },
  };
}
