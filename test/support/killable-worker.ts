// A worker instance (MODE=worker: the queues' handlers, no HTTP) in this process whose every database connection goes
// through a TCP relay this harness owns, so it can be killed abruptly at any point: `kill()` cuts every connection at
// once and refuses new ones. From then on nothing it runs can write (a transaction in flight is rolled back by the
// server, a job it holds gets no heartbeat and no outcome), as when its process is SIGKILLed; pg-boss on another
// instance retries its jobs once their heartbeat is stale. What the dead instance still runs in memory fails against
// the cut relay and is closed in the background.
//
// Its start is bounded: each step (relay, build, workers) has a time limit and says how long it took; a step that
// runs out cuts the relay (whatever it still runs then fails) and the start fails with every step's figures and what
// its database connections were doing, instead of hanging its caller.
import net from 'node:net';
import postgres from 'postgres';
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

export interface StartOptions {
  /** A line per step (`name: ms`), prefixed with `label`. Silent by default; the failure carries them anyway. */
  log?: (line: string) => void;
  label?: string;
  /** The time limit of each step (build: migrations, pools, secrets; workers: pg-boss, queues, LISTEN). */
  stepMs?: number;
}

const STEP_MS = 30_000;

export async function startKillableWorker(
  databaseUrl: string,
  env: Record<string, string>,
  overrides: Partial<Deps> = {},
  opts: StartOptions = {},
): Promise<KillableWorker> {
  const label = opts.label ?? 'worker';
  const steps: string[] = [];
  const note = (line: string) => {
    steps.push(line);
    opts.log?.(`[${label}] ${line}`);
  };
  const step = <T>(name: string, run: () => Promise<T>) => timedStep(name, opts.stepMs ?? STEP_MS, run, note);
  const relay = await step('relay', () => startRelay(new URL(databaseUrl)));
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
  const built = buildDeps(config, createLogger(config.LOG_LEVEL), overrides);
  try {
    runtime = await step('build', () => built);
    const deps = runtime.deps;
    await step('workers', () => startWorkers(deps, { work: true }));
  } catch (err) {
    // What its connections were doing, read before the cut (the backends end with it).
    const activity = `${relay.opened()} opened, ${await relayActivity(databaseUrl, relay.upstreamPorts())}`;
    // Cut first and do not wait: a pg-boss that never started may never finish stopping. A build still running
    // fails on the cut relay, or ends late and is closed then.
    relay.cut();
    void built.then((rt) => rt.close()).catch(() => {});
    note(`failed: ${(err as Error).message}; its database connections: ${activity}`);
    throw new Error(`${label} did not start: ${(err as Error).message} (steps: ${steps.join('; ')})`, { cause: err });
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

async function timedStep<T>(name: string, ms: number, run: () => Promise<T>, note: (l: string) => void): Promise<T> {
  const t0 = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`step ${name} did not end within ${ms / 1000} s`)), ms);
  });
  try {
    const value = await Promise.race([run(), late]);
    note(`${name}: ${Date.now() - t0} ms`);
    return value;
  } catch (err) {
    note(`${name}: failed after ${Date.now() - t0} ms`);
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/** The state, wait and query of each backend behind the relay's connections (pg_stat_activity by client port). */
async function relayActivity(databaseUrl: string, ports: number[]): Promise<string> {
  if (!ports.length) return 'none open';
  const admin = postgres(databaseUrl, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    const rows = await Promise.race([
      admin`
        select a.pid, a.application_name as app, a.state, a.wait_event_type, a.wait_event, left(a.query, 120) as query,
               round(extract(epoch from now() - a.state_change))::int as for_s,
               (select json_agg(json_build_object('pid', h.pid, 'app', h.application_name, 'state', h.state,
                  'query', left(h.query, 80), 'port', h.client_port))
                from pg_locks w join pg_locks l on l.locktype = w.locktype and l.objid is not distinct from w.objid
                  and l.classid is not distinct from w.classid and l.granted
                join pg_stat_activity h on h.pid = l.pid
                where w.pid = a.pid and not w.granted) as blocked_by
        from pg_stat_activity a where a.client_addr = '127.0.0.1' and a.client_port in ${admin(ports)}`,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer in 5 s')), 5_000).unref()),
    ]);
    return `${ports.length} open, ${JSON.stringify(rows)}`;
  } catch (err) {
    return `${ports.length} open, not readable (${(err as Error).message})`;
  } finally {
    void admin.end({ timeout: 1 }).catch(() => {});
  }
}

/** A TCP relay to `target` on a loopback port; `cut()` destroys every connection and stops accepting. */
async function startRelay(
  target: URL,
): Promise<{ port: number; cut(): void; upstreamPorts(): number[]; opened(): number }> {
  let opened = 0;
  const sockets = new Set<net.Socket>();
  const upstreams = new Set<net.Socket>();
  let cut = false;
  const server = net.createServer((client) => {
    if (cut) return client.destroy();
    opened++;
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    upstreams.add(upstream);
    upstream.on('close', () => upstreams.delete(upstream));
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
    opened: () => opened,
    upstreamPorts: () => [...upstreams].map((s) => s.localPort).filter((p): p is number => typeof p === 'number'),
  };
}
