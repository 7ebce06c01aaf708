import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { migrateDatabase } from '../../db/client.ts';
import { startEmbeddedPostgres } from '../../src/infra/database/embedded-postgres.ts';
import { adminUrl, urlFor } from '../support/databases.ts';
import { NOTES_DIR, REL_TEMPLATE, writeReport } from './support.ts';

async function reachable(url: string): Promise<boolean> {
  const sql = postgres(url, { max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    await sql`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/**
 * Once per reliability run: a PostgreSQL (as the main suite finds one) and a migrated template of our own, so this
 * suite never drops the template another `npm test` on the same server is cloning. RELIABILITY.md is written from
 * the notes the tests leave, at the end.
 */
export default async function setup() {
  rmSync(NOTES_DIR, { recursive: true, force: true });
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!(await reachable(adminUrl()))) {
    if (process.env.TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is set but unreachable');
    const embedded = await startEmbeddedPostgres(mkdtempSync(path.join(os.tmpdir(), 'subtext-rel-pg-')));
    process.env.TEST_DATABASE_URL = embedded.url;
    stopEmbedded = embedded.stop;
  }
  const admin = postgres(adminUrl(), { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`drop database if exists ${REL_TEMPLATE} with (force)`);
    await admin.unsafe(`create database ${REL_TEMPLATE}`);
  } finally {
    await admin.end();
  }
  await migrateDatabase(urlFor(REL_TEMPLATE));
  const { PgBoss } = await import('pg-boss');
  const boss = new PgBoss({ connectionString: urlFor(REL_TEMPLATE), schema: 'pgboss', supervise: false, schedule: false } as never);
  await boss.start();
  await boss.stop({ graceful: false } as never);
  return async () => {
    writeReport();
    await stopEmbedded?.();
  };
}
