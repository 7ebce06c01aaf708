// Persistence ports of accounts and sessions; implemented in src/infra/postgres (accounts.ts, sessions.ts).
import type { Session } from './session.ts';

export interface AccountStore {
  /** The account with this (normalized) email, created when missing. */
  ensure(email: string): Promise<{ id: string; created: boolean }>;
  findByEmail(email: string): Promise<{ id: string } | null>;
  /**
   * A new account with a password, spending the invite (when one is named) in the same transaction: refused when the
   * email is taken (the invite stays unspent) or the invite is unknown or used.
   */
  createWithPassword(
    email: string,
    passwordHash: string,
    opts: { freeFrom: string | null; inviteHash: string | null },
  ): Promise<{ id: string } | { refused: 'email-taken' | 'invite-invalid' }>;
  /** Whether an unused invite has this hash (a cheap check before the password is hashed; spending is atomic). */
  inviteUnused(codeHash: string): Promise<boolean>;
  /** Stores a new single-use sign-up invite by its hash. */
  saveInvite(codeHash: string): Promise<void>;
  passwordOf(email: string): Promise<{ id: string; passwordHash: string | null } | null>;
  /** Sets the password and ends the account's sessions; false when no account has this email. */
  setPassword(email: string, passwordHash: string): Promise<boolean>;
  list(): Promise<{ id: string; email: string; purchasedBalance: number; createdAt: Date }[]>;
  /** Counts one attempt in the subject's window, atomically; the count including this one. */
  countSignInAttempt(subject: string, windowStart: Date): Promise<number>;
  /** The subject's count in this window, without counting. */
  signInAttemptsSoFar(subject: string, windowStart: Date): Promise<number>;
  /**
   * Counts one attempt for (email, address) unless the pair is waiting, in one statement; from `threshold` attempts
   * on, the pair waits `firstDelayS` doubled per further attempt, capped. Not admitted: when the wait ends.
   */
  claimSignInAttempt(
    email: string,
    address: string,
    at: Date,
    rule: { threshold: number; firstDelayS: number; maxDelayS: number; memoryS: number },
  ): Promise<{ admitted: true } | { admitted: false; blockedUntil: Date }>;
  clearSignInFailures(email: string, address: string): Promise<void>;
}

export interface SessionStore {
  /** Stores a session (deleting the one `replacingHash` names, in the same transaction); the account's email and rate limit. */
  create(s: {
    id: string;
    accountId: string;
    tokenHash: string;
    csrfToken: string;
    expiresAt: Date;
    replacingHash: string | null;
  }): Promise<{
    email: string;
    rateLimit: number | null;
  }>;
  /** The live (unexpired) session with this token hash. */
  findByTokenHash(tokenHash: string): Promise<Session | null>;
  deleteByTokenHash(tokenHash: string): Promise<void>;
}
