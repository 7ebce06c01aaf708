import type { Sql } from '../../../db/client.ts';

/** A secret made once (the first instance's `candidate` wins) and shared by every instance on the database. */
export async function storedSecret(sql: Sql, key: string, candidate: string): Promise<string> {
  await sql`insert into settings (key, value) values (${key}, ${candidate}) on conflict do nothing`;
  const [row] = await sql<{ value: string }[]>`select value from settings where key = ${key}`;
  return row!.value;
}

/** The instance's HMAC secret for signed URLs. */
export const storedSigningSecret = (sql: Sql, candidate: string) => storedSecret(sql, 'signing_secret', candidate);
