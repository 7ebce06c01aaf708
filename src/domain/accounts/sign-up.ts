import { ServiceError } from '../errors.ts';
import type { Stores } from '../stores.ts';
import type { Credentials } from './credentials.ts';
import { hashPassword } from './password.ts';
import { countAttempt, type ThrottleLimits } from './sign-in-throttle.ts';

/**
 * Creates an account with a password. An email that already has an account is refused, with or without a password:
 * accounts made by the command-line tool have none, and there is no mail round-trip here to prove the address, so
 * letting sign-up set one would hand that account (keys, credits) to whoever types the email first. The operator
 * sets a password for such an account with `npm run cli -- accounts set-password --email ...`.
 */
export async function signUp(
  ports: Pick<Stores, 'accounts'>,
  input: Credentials,
  ip: string,
  limits: ThrottleLimits,
): Promise<{ accountId: string }> {
  await countAttempt(ports, [{ subject: `signup-ip:${ip}`, limit: limits.perIp }]);
  const hash = await hashPassword(input.password);
  const accountId = await ports.accounts.createWithPassword(input.email, hash);
  if (!accountId) {
    throw new ServiceError(
      'INVALID_REQUEST',
      'An account with this email already exists. Sign in instead; an account created by the command-line tool has no password until the operator sets one.',
    );
  }
  return { accountId };
}
