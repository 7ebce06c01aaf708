// Shared pieces of the benchmarks: a dedicated database per bench, the service in a child process, autocannon runs,
// percentiles and the machine description. Every server here listens on 127.0.0.1 only.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import autocannon from 'autocannon';
import { migrateDatabase } from '../db/client.ts';
import { freePort } from '../src/infra/database/free-port.ts';
import { createDatabase } from '../test/support/databases.ts';

export const REPO = new URL('../', import.meta.url).pathname;

/** A fresh, migrated database of our own (no shared template is touched), dropped by `drop()`. */
export async function benchDatabase(tag: string): Promise<{ url: string; drop(): Promise<void> }> {
  const db = await createDatabase(`subtext_bench_${tag}`);
  await migrateDatabase(db.url);
  return db;
}

export { freePort };

export interface ChildServer {
  url: string;
  pid: number;
  child: ChildProcess;
  rssMiB(): number;
  stop(): Promise<void>;
}

/**
 * The command `npm start` runs (package.json), as Node arguments, so the service is measured as users run it (same
 * flags, same loader) while the pid measured is Node's own, not npm's.
 */
function startCommand(): string[] {
  const script = (JSON.parse(readFileSync(`${REPO}package.json`, 'utf8')) as { scripts: { start: string } }).scripts
    .start;
  const words = script.split(/\s+/).filter((w) => w && w !== 'exec');
  // Leading VAR=value words are the environment the script sets (GLIBC_TUNABLES): startChild passes it.
  while (words[0] && /^[A-Z_]+=/.test(words[0])) {
    const [name, ...value] = words.shift()!.split('=');
    START_ENV[name!] = value.join('=');
  }
  if (words[0] === 'node') return words.slice(1);
  if (words[0] === 'tsx') return ['--import', 'tsx', ...words.slice(1)];
  throw new Error(`cannot run the start script "${script}" directly`);
}

/** The environment the start script sets before `node` (filled by startCommand). */
const START_ENV: Record<string, string> = {};

/** The service as `npm start` runs it, waiting until /healthz answers 200. */
export const startService = (env: Record<string, string>) => startChild(startCommand(), { ...START_ENV, ...env });

/** Runs a TypeScript entry point under Node with tsx (or the given Node arguments), waits until `readyPath` answers 200. */
export async function startChild(
  entry: string | string[],
  env: Record<string, string>,
  readyPath = '/healthz',
): Promise<ChildServer> {
  const port = await freePort();
  const child = spawn(process.execPath, Array.isArray(entry) ? entry : ['--import', 'tsx', entry], {
    cwd: REPO,
    // NODE_ENV is left to what the started program does (`npm start` sets production), as a new user gets it.
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (c) => (stderr = (stderr + c).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 300_000; // a loaded machine can take minutes to start a process
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${entry} exited ${child.exitCode}: ${stderr}`);
    try {
      const r = await fetch(url + readyPath);
      if (r.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`${entry} did not get ready: ${stderr}`);
    await sleep(100);
  }
  return {
    url,
    pid: child.pid!,
    child,
    rssMiB: () => rssOf(child.pid!),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.once('exit', () => {
          clearTimeout(t);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** CPU seconds a process has used (user and system), from /proc (Linux; clock ticks of 1/100 s). */
export function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Resident set size of a process, from /proc (Linux). */
function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The machine's 1-minute load average, to print beside a figure measured on a machine others may share. */
export const loadAverage = () => os.loadavg()[0]!;

/**
 * `n` processes that each keep one core busy (a competing load), until stopped: a loaded run made on purpose. Their
 * own loop, in a child process each, never in the load generator's.
 */
export function competingLoad(n: number): { stop(): void } {
  const children = Array.from({ length: n }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  return {
    stop: () => {
      for (const c of children) c.kill('SIGKILL');
    },
  };
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  total: number;
}

/** One autocannon run (programmatic API). */
export async function load(opts: {
  url: string;
  connections: number;
  seconds: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** A different body per request (called for every request), instead of `body`. */
  nextBody?: () => string;
}): Promise<LoadResult> {
  const next = opts.nextBody;
  const r = await autocannon({
    url: opts.url,
    connections: opts.connections,
    duration: opts.seconds,
    method: opts.method ?? 'POST',
    headers: opts.headers,
    body: opts.body,
    ...(next ? { requests: [{ setupRequest: (req: Record<string, unknown>) => ({ ...req, body: next() }) }] } : {}),
  });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    total: r.requests.total,
  };
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

export const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

export function machine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown';
  return `${cpu}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB memory, Node ${process.version}, ${os.platform()} ${os.release()}`;
}

export function table(head: string[], rows: (string | number)[][]): string {
  return [
    `| ${head.join(' | ')} |`,
    `| ${head.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

export interface BenchSection {
  title: string;
  markdown: string;
}
