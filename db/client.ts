import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import * as schema from './schema/index.ts';

export type Sql = postgres.Sql;

export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * The service's pool. Queries are plain postgres.js: drizzle is used for the schema and migrations
 * only, because its postgres-js driver replaces the client's type parsers (dates and JSON come back
 * as strings), which would break every raw query sharing the client.
 */
export function connect(url: string, opts: { max?: number } = {}): { sql: Sql } {
  const sql = postgres(url, {
    max: opts.max ?? 10,
    onnotice: () => {},
    // A restarted server leaves dead sockets: drop idle ones so the pool heals by itself.
    idle_timeout: 30,
    connect_timeout: 10,
    // postgres.js delays each reconnection by 3^n/100 s (n: failed attempts, shared by the whole pool, up to 20 s),
    // and queries queued on a reconnecting connection wait that long: after a few seconds of outage, requests hung
    // 15-20 s past the database's return. Cap the delay at 1 s so the pool is back within a second of the server.
    backoff: (retries: number) => (0.5 + Math.random() / 2) * Math.min(3 ** retries / 100, 1),
  });
  return { sql };
}

/** Applies the committed migrations; idempotent, safe to run from several instances at once. */
export async function migrateDatabase(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const db = drizzle(sql, { schema });
  try {
    // Serialize concurrent boots: drizzle's migrator is not safe against two runners.
    await sql`select pg_advisory_lock(724011)`;
    await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
  } finally {
    await sql.end();
  }
}
