import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const accounts = pgTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull().unique(),
    /** Credits bought or granted; never expire. */
    purchasedBalance: integer('purchased_balance').notNull().default(0),
    /** What is left of the free allowance on `freeDay` (UTC); a later day starts at the full allowance. */
    freeRemaining: integer('free_remaining').notNull().default(0),
    freeDay: date('free_day', { mode: 'string' }),
    /** First UTC day the daily allowance applies (NEW_ACCOUNT_FREE_DELAY_DAYS after an open sign-up); null: always. */
    freeFrom: date('free_from', { mode: 'string' }),
    /** Credits reserved by holds (credit_holds) for work under way: not spendable until settled or released. */
    heldCredits: integer('held_credits').notNull().default(0),
    rateLimitPerMinute: integer('rate_limit_per_minute'),
    passwordHash: text('password_hash'),
    /** Standard Webhooks signing secret (whsec_...), made when first needed. */
    webhookSecret: text('webhook_secret'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('purchased_non_negative', sql`${t.purchasedBalance} >= 0`),
    check('free_non_negative', sql`${t.freeRemaining} >= 0`),
    check('held_non_negative', sql`${t.heldCredits} >= 0`),
  ],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** First characters of the key, shown in listings so a holder can tell keys apart. */
    prefix: text('prefix').notNull(),
    /** SHA-256 of the whole key, hex. The key itself is never stored. */
    hash: text('hash').notNull().unique(),
    rateLimitPerMinute: integer('rate_limit_per_minute'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [index('api_keys_account_idx').on(t.accountId)],
);

/** Single-use sign-up invites (SIGN_UP=invite), made by the operator's CLI. Only the code's SHA-256 is stored. */
export const signUpInvites = pgTable('sign_up_invites', {
  codeHash: text('code_hash').primaryKey(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  accountId: text('account_id').references(() => accounts.id, { onDelete: 'set null' }),
});
