import { randomBytes } from 'node:crypto';
import { connect, migrateDatabase } from '../db/client.ts';
import type { Config } from './config.ts';
import type { Deps } from './deps.ts';
import { createLastUsedRecorder } from './domain/keys/last-used.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './infra/database/embedded-postgres.ts';
import type { Logger } from './infra/log/logger.ts';
import { createJobQueue } from './jobs/queue.ts';

export interface Runtime {
  deps: Deps;
  close(): Promise<void>;
}

/** Resolves the database (embedded when DATABASE_URL is unset), migrates it, and builds every dependency. */
export async function buildDeps(config: Config, log: Logger, overrides: Partial<Deps> = {}): Promise<Runtime> {
  let embedded: EmbeddedDatabase | undefined;
  let url = config.DATABASE_URL;
  if (!url) {
    log.info({ dataDir: config.DATA_DIR }, 'DATABASE_URL is not set: starting an embedded PostgreSQL');
    embedded = await startEmbeddedPostgres(config.DATA_DIR);
    url = embedded.url;
    log.info({ dataDir: config.DATA_DIR }, 'embedded PostgreSQL is running');
  }
  await migrateDatabase(url);
  const { sql, db } = connect(url, { max: 20 });
  const signingSecret = config.SIGNING_SECRET ?? (await storedSecret(sql));
  const queue = createJobQueue({ url, sql, log, maxWaiting: config.QUEUE_MAX_WAITING });
  const lastUsed = createLastUsedRecorder(sql);
  const publicUrl = (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '');

  const deps = {
    config,
    sql,
    db,
    log,
    lastUsed,
    queue,
    signingSecret,
    publicUrl,
    llm: null,
    ...overrides,
  } as Deps;

  return {
    deps,
    async close() {
      await lastUsed.stop();
      await queue.stop().catch(() => {});
      await sql.end({ timeout: 5 });
      await embedded?.stop();
    },
  };
}

async function storedSecret(sql: Deps['sql']): Promise<string> {
  await sql`insert into settings (key, value) values ('signing_secret', ${randomBytes(32).toString('hex')}) on conflict do nothing`;
  const [row] = await sql<{ value: string }[]>`select value from settings where key = 'signing_secret'`;
  return row!.value;
}
