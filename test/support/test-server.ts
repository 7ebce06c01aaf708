import type { AddressInfo } from 'node:net';
import { buildDeps } from '../../src/build-deps.ts';
import { createHttpApp } from '../../src/bridges/http-app.ts';
import { serveHttp } from '../../src/bridges/http-server.ts';
import { parseConfig } from '../../src/config.ts';
import type { Deps } from '../../src/deps.ts';
import { createLogger } from '../../src/infra/log/logger.ts';
import { startWorkers } from '../../src/jobs/start-workers.ts';
import { createTestDatabase } from './databases.ts';
import { createApiKey, ensureAccount, grantCredits } from './stores.ts';
import { openApiChecker } from './openapi-responses.ts';

export interface TestServer {
  url: string;
  deps: Deps;
  /** A new account with a key; `credits` are granted as purchased credits on top of the daily allowance. */
  newKey(opts?: {
    credits?: number;
    rateLimit?: number;
    expiresAt?: Date;
  }): Promise<{ key: string; keyId: string; accountId: string }>;
  close(): Promise<void>;
}

let counter = 0;

/** The real service on a random port, against its own database. */
export async function startTestServer(
  env: Record<string, string> = {},
  overrides: Partial<Deps> = {},
  /** `earlyReads: false`: every call goes to its procedure (no plain stored read is answered before it). */
  opts: { database?: { url: string; drop(): Promise<void> }; earlyReads?: boolean } = {},
): Promise<TestServer> {
  const database = opts.database ?? (await createTestDatabase());
  // Speech-to-text is off unless a test turns it on (STT_ENGINE, STT_BASE_URL): Debian's pocketsphinx on this
  // machine would otherwise transcribe every captionless video the other tests ask for.
  const config = parseConfig({
    DAILY_FREE_CREDITS: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    STT_ENGINE: 'off',
    ...env,
    DATABASE_URL: database.url,
    PORT: '0',
  });
  const log = createLogger(config.LOG_LEVEL);
  const runtime = await buildDeps(config, log, overrides);
  await startWorkers(runtime.deps, { work: config.MODE !== 'api' });
  const app = createHttpApp(runtime.deps, undefined, { earlyReads: opts.earlyReads });
  const server = serveHttp(app, { port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  // PUBLIC_URL given: the service's public origin is that (a proxy in front, say); else the listener's.
  if (!env.PUBLIC_URL) runtime.deps.publicUrl = url;
  // The document REST answers are checked against, loaded now rather than on a test's first request.
  await openApiChecker(url);

  return {
    url,
    deps: runtime.deps,
    async newKey(o = {}) {
      const account = await ensureAccount(runtime.deps.sql, `user${++counter}-${Date.now()}@example.com`);
      if (o.credits) await grantCredits(runtime.deps.sql, account.id, o.credits);
      const k = await createApiKey(runtime.deps.sql, {
        accountId: account.id,
        name: 'test',
        rateLimit: o.rateLimit ?? null,
        expiresAt: o.expiresAt ?? null,
      });
      return { key: k.key, keyId: k.id, accountId: account.id };
    },
    // Bounded even when the database is gone or clients keep connections open: a hung close would only show up as
    // a hook timeout minutes later, hiding the test's own failure.
    async close() {
      const http = server as import('node:http').Server;
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeIdleConnections?.();
      await within(closed, 5_000, () => http.closeAllConnections?.());
      await within(runtime.close(), 30_000, () =>
        runtime.deps.log.warn('test server: runtime.close() still running after 30 s; left behind'),
      );
      if (!opts.database) await database.drop();
    },
  };
}

/** Waits for `p` at most `ms` (its error, if it fails in time, is thrown); past that, calls `onTimeout` and goes on. */
async function within(p: Promise<unknown>, ms: number, onTimeout: () => void): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
  try {
    if ((await Promise.race([p, late])) === 'late') {
      p.catch(() => {});
      onTimeout();
    }
  } finally {
    clearTimeout(timer);
  }
}
