// `npm start` as a user runs it: a real npm, the real service and its embedded PostgreSQL, in child processes.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';

export interface Started {
  /** The npm process; its own process group (spawned detached), so the group can be signalled. */
  npm: ChildProcess;
  lines: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Lines that are neither npm's own nor JSON logs: what the service told the user. */
  plainLines(): string[];
  logs(): Array<Record<string, any>>;
}

const REPO = path.resolve(import.meta.dirname, '../..');

/** Spawns `npm <args>` in the repository with the given environment (no DATABASE_URL unless given). */
export function spawnNpm(args: string[], env: Record<string, string>): Started {
  // A user's environment, not the test runner's (vitest sets MODE=test and NODE_ENV, which the service reads).
  const inherited = Object.fromEntries(
    ['PATH', 'HOME', 'TMPDIR', 'LANG'].flatMap((k) => (process.env[k] ? [[k, process.env[k]!]] : [])),
  );
  const npm = spawn('npm', args, {
    cwd: REPO,
    env: { ...inherited, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const lines: string[] = [];
  createInterface({ input: npm.stdout! }).on('line', (l) => lines.push(l));
  createInterface({ input: npm.stderr! }).on('line', (l) => lines.push(l));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    npm.once('close', (code, signal) => resolve({ code, signal })),
  );
  const logs = () => lines.flatMap((l) => (l.startsWith('{') ? [JSON.parse(l) as Record<string, any>] : []));
  const plainLines = () =>
    lines.filter((l) => l.trim() && !l.startsWith('{') && !/^(npm (warn|error|notice)|> )/.test(l));
  return { npm, lines, exited, logs, plainLines };
}

/** Resolves once `/healthz` answers 200; rejects when the process exits first or the deadline passes. */
export async function untilHealthy(s: Started, port: number, deadlineMs = 120_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  let exited = false;
  void s.exited.then(() => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`npm start exited before answering:\n${s.lines.join('\n')}`);
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`npm start did not answer /healthz within ${deadlineMs} ms:\n${s.lines.join('\n')}`);
}

/** The service's own pid, from its "listening" log line. */
export function servicePid(s: Started): number {
  const pid = s.logs().find((l) => /listening/.test(l.msg))?.pid;
  if (typeof pid !== 'number') throw new Error(`no pid in the logs:\n${s.lines.join('\n')}`);
  return pid;
}

/** The embedded PostgreSQL's postmaster pid, from its pid file (null when there is none). */
export function postmasterPid(dataDir: string): number | null {
  try {
    return Number(readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return null;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Waits (with a deadline) until a process is gone. */
export async function untilGone(pid: number, deadlineMs = 30_000): Promise<boolean> {
  const deadline = Date.now() + deadlineMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}
