import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';

/** The server tests run against: TEST_DATABASE_URL, or the local PostgreSQL with trust auth. */
export const adminUrl = () => process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/**
 * The migrated template each test database is cloned from. Its name carries a hash of the migrations and the
 * pg-boss version, so concurrent test runs (several engineers share one PostgreSQL) share a finished template
 * and never drop one another's: a run with different migrations builds its own under another name.
 */
export const TEMPLATE_DB = `subtext_tpl_${templateHash()}`;

function templateHash(): string {
  const hash = createHash('sha256');
  const dir = fileURLToPath(new URL('../../db/migrations', import.meta.url));
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort())
    hash.update(file).update(readFileSync(join(dir, file)));
  const boss = fileURLToPath(new URL('../../node_modules/pg-boss/package.json', import.meta.url));
  hash.update(JSON.parse(readFileSync(boss, 'utf8')).version);
  return hash.digest('hex').slice(0, 12);
}

export function urlFor(db: string): string {
  const u = new URL(adminUrl());
  u.pathname = `/${db}`;
  return u.toString();
}

/** A fresh database named `<prefix>_<random>`, empty or cloned from `template`; `drop()` removes it. */
export async function createDatabase(
  prefix: string,
  template?: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await withAdmin((admin) => admin.unsafe(`create database ${name}${template ? ` template ${template}` : ''}`));
  return {
    url: urlFor(name),
    drop: () => withAdmin((admin) => admin.unsafe(`drop database if exists ${name} with (force)`)),
  };
}

async function withAdmin(fn: (admin: postgres.Sql) => Promise<unknown>): Promise<void> {
  const admin = postgres(adminUrl(), { max: 1, onnotice: () => {} });
  try {
    await fn(admin);
  } finally {
    await admin.end();
  }
}

/** A fresh database cloned from the migrated template; each test file gets its own. */
export const createTestDatabase = () => createDatabase('subtext_t', TEMPLATE_DB);
