import { chmodSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { migrateDatabase } from '../../db/client.ts';
import { postgresAnswers, startEmbeddedPostgres } from '../../src/infra/database/embedded-postgres.ts';
import { installCommand } from '../../bin/system-needs.js';
import { adminUrl, TEMPLATE_DB, urlFor } from './databases.ts';
import { REPO_ROOT } from './fixture-files.ts';
import { type SkippedSuite, suitesToSkip } from './system-needs.ts';

/**
 * Finds a PostgreSQL (TEST_DATABASE_URL, the local server, or an embedded one on a machine with none) and builds the
 * migrated template each test database is cloned from. Returns what stops the embedded server, if one was started.
 */
export async function preparePostgres(): Promise<() => Promise<void>> {
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!(await postgresAnswers(adminUrl(), 3))) {
    if (process.env.TEST_DATABASE_URL) throw new Error(`TEST_DATABASE_URL is set but unreachable`);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'subtext-test-pg-'));
    chmodSync(dir, 0o755); // as root the database runs as the user postgres, which must be able to enter it
    const embedded = await startEmbeddedPostgres(dir);
    process.env.TEST_DATABASE_URL = embedded.url; // inherited by the test workers
    stopEmbedded = embedded.stop;
    console.log('No PostgreSQL on 127.0.0.1:5432: the tests run on an embedded one.');
  }
  await ensureTemplate();
  return async () => {
    await stopEmbedded?.();
  };
}

/** Once per `npm test` run; at its end, the block naming the suites left out for a missing system tool. */
export default async function setup() {
  const stopPostgres = await preparePostgres();
  return async () => {
    printSkipped(suitesToSkip(REPO_ROOT));
    await stopPostgres();
  };
}

function printSkipped(skipped: SkippedSuite[]) {
  if (skipped.length === 0) return;
  const needs = [...new Set(skipped.flatMap((s) => s.needs))];
  console.log(
    [
      `\nSkipped ${skipped.length} test files: a system tool they need is missing (with CI set they fail instead).`,
      ...skipped.map((s) => `  ${s.file}  (${s.needs.join(', ')})`),
      `Install them (npm test does it itself when run as root with apt): ${installCommand(needs)}`,
    ].join('\n'),
  );
}

/**
 * Builds the template once per migration set, safely against concurrent runs: under an advisory lock, built
 * under a temporary name and renamed when complete, so a clone never sees a half-built template.
 */
async function ensureTemplate() {
  const admin = postgres(adminUrl(), { max: 1, onnotice: () => {} });
  try {
    await admin`select pg_advisory_lock(724012)`;
    const [exists] = await admin`select 1 from pg_database where datname = ${TEMPLATE_DB}`;
    if (exists) return;
    const building = `${TEMPLATE_DB}_building`;
    await admin.unsafe(`drop database if exists ${building} with (force)`);
    await admin.unsafe(`create database ${building}`);
    await migrateDatabase(urlFor(building));
    // pg-boss creates its schema on first start; do it once here so each clone starts fast.
    const { PgBoss } = await import('pg-boss');
    const boss = new PgBoss({
      connectionString: urlFor(building),
      schema: 'pgboss',
      supervise: false,
      schedule: false,
    } as never);
    await boss.start();
    await boss.stop({ graceful: false } as never);
    // pg-boss's pool may still be closing; a rename (like a clone) needs the database to itself.
    await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${building} and pid <> pg_backend_pid()`;
    await admin.unsafe(`alter database ${building} rename to ${TEMPLATE_DB}`);
  } finally {
    await admin`select pg_advisory_unlock(724012)`.catch(() => {});
    await admin.end();
  }
}
