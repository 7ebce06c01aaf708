import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';

/** Website sign-ins. The cookie carries a random token; only its SHA-256 is stored, so a database leak signs no one in. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** SHA-256 of the cookie's token, hex. */
    tokenHash: text('token_hash').notNull().unique(),
    /** Sent back in the x-csrf-token header on every cookie-authenticated call that changes state. */
    csrfToken: text('csrf_token').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_account_idx').on(t.accountId)],
);

/**
 * Sign-in attempts per subject (`email:...`, `ip:...`, `signup-ip:...`) in fixed windows, counted before the password
 * is checked, so parallel guesses cannot slip past the limit.
 */
export const signInAttempts = pgTable(
  'sign_in_attempts',
  {
    subject: text('subject').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.subject, t.windowStart] })],
);

/**
 * Sign-in attempts per (email, client address) not yet followed by a success. Each is counted before the password is
 * checked; from a threshold on, the pair waits a doubling delay (`blocked_until`). Other addresses are not affected.
 */
export const signInFailures = pgTable(
  'sign_in_failures',
  {
    email: text('email').notNull(),
    address: text('address').notNull(),
    failures: integer('failures').notNull(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }).notNull(),
    blockedUntil: timestamp('blocked_until', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.email, t.address] })],
);
