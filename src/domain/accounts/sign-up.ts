import { createHash, randomBytes } from 'node:crypto';
import { utcDay } from '../credits/credits.ts';
import { ServiceError } from '../errors.ts';
import type { Stores } from '../stores.ts';
import type { SignUpInput } from './credentials.ts';
import { hashPassword } from './password.ts';
import { countAttempt, type ThrottleLimits } from './sign-in-throttle.ts';

type SignUpMode = 'open' | 'closed' | 'invite';

export interface SignUpPolicy {
  /** SIGN_UP: anyone, no one, or whoever holds an operator's invite. */
  mode: SignUpMode;
  /** Days an account made by open sign-up waits before the daily free allowance applies (farming new accounts). */
  freeDelayDays: number;
}

const SIGN_UP_CLOSED = 'Sign-up is closed on this server; ask its operator for an account.';
const INVITE_NEEDED =
  'Sign-up on this server needs an invite code from its operator; this one is missing, unknown or already used.';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * Creates an account with a password. An email that already has an account is refused, with or without a password:
 * accounts made by the command-line tool have none, and there is no mail round-trip here to prove the address, so
 * letting sign-up set one would hand that account (keys, credits) to whoever types the email first. The operator
 * sets a password for such an account with `npm run cli -- accounts set-password --email ...`.
 */
export async function signUp(
  ports: Pick<Stores, 'accounts'>,
  input: SignUpInput,
  ip: string,
  limits: ThrottleLimits,
  policy: SignUpPolicy,
  now = Date.now(),
): Promise<{ accountId: string }> {
  // Counted first, so guessing invite codes is bounded per address like everything else here.
  await countAttempt(ports, [{ subject: `signup-ip:${ip}`, limit: limits.perIp }], now);
  if (policy.mode === 'closed') throw new ServiceError('FORBIDDEN', SIGN_UP_CLOSED);
  const inviteHash = policy.mode === 'invite' && input.inviteCode ? sha256(input.inviteCode) : null;
  // Refused before the (deliberately slow) password hash, so guessing codes costs the server little.
  if (policy.mode === 'invite' && !(inviteHash && (await ports.accounts.inviteUnused(inviteHash))))
    throw new ServiceError('FORBIDDEN', INVITE_NEEDED);
  const hash = await hashPassword(input.password);
  const created = await ports.accounts.createWithPassword(input.email, hash, {
    freeFrom:
      policy.mode === 'open' && policy.freeDelayDays > 0
        ? utcDay(new Date(now + policy.freeDelayDays * 86_400_000))
        : null,
    inviteHash,
  });
  if ('id' in created) return { accountId: created.id };
  if (created.refused === 'invite-invalid') throw new ServiceError('FORBIDDEN', INVITE_NEEDED);
  throw new ServiceError(
    'INVALID_REQUEST',
    'An account with this email already exists. Sign in instead; an account created by the command-line tool has no password until the operator sets one.',
  );
}

/** A new single-use invite for SIGN_UP=invite: the code is returned once and stored only as its SHA-256. */
export async function createInvite({ accounts }: Pick<Stores, 'accounts'>): Promise<string> {
  const code = `inv_${randomBytes(24).toString('base64url')}`;
  await accounts.saveInvite(sha256(code));
  return code;
}
