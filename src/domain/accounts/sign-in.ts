import type { Sql } from '../../../db/client.ts';
import { ServiceError } from '../errors.ts';
import type { SignInInput } from './credentials.ts';
import { burnPasswordCheck, verifyPassword } from './password.ts';
import { clearAttempts, countAttempt, type ThrottleLimits } from './sign-in-throttle.ts';

const WRONG = 'Wrong email or password';

/** The account a correct email and password belong to. Every failure reads the same and takes as long. */
export async function signIn(sql: Sql, input: SignInInput, ip: string, limits: ThrottleLimits): Promise<{ accountId: string }> {
  const emailSubject = `email:${input.email}`;
  await countAttempt(sql, [
    { subject: `ip:${ip}`, limit: limits.perIp },
    { subject: emailSubject, limit: limits.perEmail },
  ]);
  const [row] = await sql<{ id: string; password_hash: string | null }[]>`
    select id, password_hash from accounts where email = ${input.email}`;
  if (!row?.password_hash) {
    await burnPasswordCheck(input.password);
    throw new ServiceError('UNAUTHENTICATED', WRONG);
  }
  if (!(await verifyPassword(input.password, row.password_hash))) throw new ServiceError('UNAUTHENTICATED', WRONG);
  await clearAttempts(sql, emailSubject);
  return { accountId: row.id };
}

/** For the operator (CLI): give an account a password, e.g. one created by `keys create` before the website existed. */
export async function setPassword(sql: Sql, email: string, passwordHash: string): Promise<boolean> {
  const rows = await sql`update accounts set password_hash = ${passwordHash} where email = ${email} returning id`;
  if (rows.length > 0) await sql`delete from sessions where account_id = ${rows[0]!.id}`;
  return rows.length > 0;
}
