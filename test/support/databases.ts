import { randomBytes } from 'node:crypto';
import postgres from 'postgres';

/** The server tests run against: TEST_DATABASE_URL, or the local PostgreSQL with trust auth. */
export const adminUrl = () => process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEMPLATE_DB = 'subtext_test_template';

export function urlFor(db: string): string {
  const u = new URL(adminUrl());
  u.pathname = `/${db}`;
  return u.toString();
}

/** A fresh database cloned from the migrated template; each test file gets its own. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `subtext_t_${randomBytes(6).toString('hex')}`;
  const admin = postgres(adminUrl(), { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name} template ${TEMPLATE_DB}`);
  } finally {
    await admin.end();
  }
  return {
    url: urlFor(name),
    async drop() {
      const a = postgres(adminUrl(), { max: 1, onnotice: () => {} });
      try {
        await a.unsafe(`drop database if exists ${name} with (force)`);
      } finally {
        await a.end();
      }
    },
  };
}
