import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MIGRATIONS_DIR } from '../../db/client.ts';
import type { Deps } from '../deps.ts';

/** The newest committed migration this build expects (drizzle records each one's `when` as created_at). */
const expectedMigration = (() => {
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as {
    entries: { when: number; tag: string }[];
  };
  return journal.entries.reduce((a, b) => (b.when > a.when ? b : a));
})();

const CHECK_TIMEOUT_MS = 3000;

const within = <T>(p: Promise<T>): Promise<T> =>
  Promise.race([
    p,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS).unref(),
    ),
  ]);

export interface Readiness {
  ready: boolean;
  checks: { database: string; migrations: string; queue: string; blobs: string };
}

/**
 * Whether this instance can do its work: the database answers, its schema has every migration this build ships,
 * the job queue is running, and the blob store (S3) is usable. Each check says "ok" or why not.
 */
export async function checkReadiness(deps: Deps): Promise<Readiness> {
  const fail = (err: unknown) => (err instanceof Error ? err.message : String(err));
  const [database, migrations, blobs] = await Promise.all([
    within(deps.sql`select 1`).then(
      () => 'ok',
      () => 'unreachable',
    ),
    within(
      deps.sql<{ last: string | null }[]>`select max(created_at)::text as last from drizzle.__drizzle_migrations`,
    ).then(
      ([row]) =>
        Number(row?.last ?? 0) >= expectedMigration.when ? 'ok' : `missing migration ${expectedMigration.tag}`,
      () => 'unknown (database unreachable)',
    ),
    deps.blobs.check ? within(deps.blobs.check()).then(() => 'ok', fail) : Promise.resolve('ok'),
  ]);
  const queue = deps.queue.isRunning() ? 'ok' : 'stopped';
  const checks = { database, migrations, queue, blobs };
  return { ready: Object.values(checks).every((c) => c === 'ok'), checks };
}
