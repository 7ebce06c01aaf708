import { ServiceError } from '../errors.ts';
import type { Stores } from '../stores.ts';
import type { SignInInput } from './credentials.ts';
import { burnPasswordCheck, verifyPassword } from './password.ts';
import { admitPasswordCheck, countAttempt, type ThrottleLimits } from './sign-in-throttle.ts';

const WRONG = 'Wrong email or password';

/** The account a correct email and password belong to. Every failure reads the same and takes as long. */
export async function signIn(
  ports: Pick<Stores, 'accounts'>,
  input: SignInInput,
  ip: string,
  limits: ThrottleLimits,
  now = Date.now(),
): Promise<{ accountId: string }> {
  await countAttempt(ports, [{ subject: `ip:${ip}`, limit: limits.perIp }], now);
  await admitPasswordCheck(ports, input.email, ip, limits, now);
  const row = await ports.accounts.passwordOf(input.email);
  if (!row?.passwordHash) {
    await burnPasswordCheck(input.password);
    throw new ServiceError('UNAUTHENTICATED', WRONG);
  }
  if (!(await verifyPassword(input.password, row.passwordHash))) throw new ServiceError('UNAUTHENTICATED', WRONG);
  await ports.accounts.clearSignInFailures(input.email, ip);
  return { accountId: row.id };
}

/** For the operator (CLI): give an account a password, e.g. one created by `keys create` before the website existed. */
export async function setPassword(
  { accounts }: Pick<Stores, 'accounts'>,
  email: string,
  passwordHash: string,
): Promise<boolean> {
  return accounts.setPassword(email, passwordHash);
}
