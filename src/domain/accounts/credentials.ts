import { z } from 'zod';
import { isEmailAddress, MAX_EMAIL_LENGTH } from './email-address.ts';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './password.ts';

const TOO_LONG = `must be at most ${MAX_EMAIL_LENGTH} characters`;
// The length check aborts: zod runs every check by default, and the pattern must never see an unbounded string.
const Email = z
  .string()
  .max(MAX_EMAIL_LENGTH * 4, { abort: true, message: TOO_LONG })
  .trim()
  .toLowerCase()
  .max(MAX_EMAIL_LENGTH, { abort: true, message: TOO_LONG })
  .refine(isEmailAddress, 'must be an email address');

export const Credentials = z.object({
  email: Email,
  password: z
    .string()
    .min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`)
    .max(MAX_PASSWORD_LENGTH, `must be at most ${MAX_PASSWORD_LENGTH} characters`),
});
export type Credentials = z.infer<typeof Credentials>;

/** An invite code is read only when the operator set SIGN_UP=invite. */
export const SignUpInput = Credentials.extend({ inviteCode: z.string().trim().max(200).optional() });
export type SignUpInput = z.infer<typeof SignUpInput>;

/** Sign-in accepts any length: a policy change must not lock out an older password, and length is no hint. */
export const SignInInput = z.object({ email: Email, password: z.string().min(1).max(MAX_PASSWORD_LENGTH) });
export type SignInInput = z.infer<typeof SignInInput>;

const AccountView = z.object({ id: z.string(), email: z.string() });

export const SignedIn = z.object({
  account: AccountView,
  /** Send as x-csrf-token on every call that changes state. */
  csrfToken: z.string(),
});
export type SignedIn = z.infer<typeof SignedIn>;
