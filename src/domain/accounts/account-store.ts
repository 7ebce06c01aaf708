// Persistence ports of accounts and sessions; implemented in src/infra/postgres (accounts.ts, sessions.ts).
import type { Session } from './sessions.ts';

export interface AccountStore {
  /** The account with this (normalized) email, created when missing. */
  ensure(email: string): Promise<{ id: string; created: boolean }>;
  findByEmail(email: string): Promise<{ id: string } | null>;
  /** A new account with a password; null when the email is taken. */
  createWithPassword(email: string, passwordHash: string): Promise<string | null>;
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
