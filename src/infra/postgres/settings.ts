import type { Sql } from '../../../db/client.ts';

/** The instance's HMAC secret for signed URLs: made once, shared by every instance on the database. */
export async function storedSigningSecret(sql: Sql, candidate: string): Promise<string> {
  await sql`insert into settings (key, value) values ('signing_secret', ${candidate}) on conflict do nothing`;
  const [row] = await sql<{ value: string }[]>`select value from settings where key = 'signing_secret'`;
  return row!.value;
}
