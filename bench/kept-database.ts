// A named bench database that outlives the run (BENCH_SEARCH_DB): created and migrated when missing, migrated again
// when present (new migrations apply to the kept data), never dropped.
import postgres from 'postgres';
import { migrateDatabase } from '../db/client.ts';
import { adminUrl, urlFor } from '../test/support/databases.ts';

export async function keptDatabase(name: string): Promise<{ url: string; drop(): Promise<void> }> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name))
    throw new Error(`BENCH_SEARCH_DB must be a plain lower-case name, not "${name}"`);
  const admin = postgres(adminUrl(), { max: 1, onnotice: () => {} });
  try {
    const [found] = await admin`select 1 from pg_database where datname = ${name}`;
    if (!found) await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = urlFor(name);
  await migrateDatabase(url);
  return { url, drop: async () => {} };
}
