import type { Sql } from '../../../db/client.ts';
import { ServiceError } from '../errors.ts';
import { newId } from '../ids.ts';
import type { Credentials } from './credentials.ts';
import { hashPassword } from './password.ts';
import { countAttempt, type ThrottleLimits } from './sign-in-throttle.ts';

/**
 * Creates an account with a password. An email that already has an account is refused, with or without a password:
 * accounts made by the command-line tool have none, and there is no mail round-trip here to prove the address, so
 * letting sign-up set one would hand that account (keys, credits) to whoever types the email first. The operator
 * sets a password for such an account with `npm run cli -- accounts set-password --email ...`.
 */
export async function signUp(sql: Sql, input: Credentials, ip: string, limits: ThrottleLimits): Promise<{ accountId: string }> {
  await countAttempt(sql, [{ subject: `signup-ip:${ip}`, limit: limits.perIp }]);
  const hash = await hashPassword(input.password);
  const [row] = await sql<{ id: string }[]>`
    insert into accounts (id, email, password_hash) values (${newId('acc')}, ${input.email}, ${hash})
    on conflict (email) do nothing returning id`;
  if (!row) {
    throw new ServiceError(
      'INVALID_REQUEST',
      'An account with this email already exists. Sign in instead; an account created by the command-line tool has no password until the operator sets one.',
    );
  }
  return { accountId: row.id };
}
