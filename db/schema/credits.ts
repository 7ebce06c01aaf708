import { bigint, bigserial, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';

/** Every change to a balance: charges (negative), refunds and grants (positive). Sums to the balances. */
export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['charge', 'refund', 'grant'] }).notNull(),
    /** Total change: freeDelta + purchasedDelta. */
    delta: integer('delta').notNull(),
    freeDelta: integer('free_delta').notNull(),
    purchasedDelta: integer('purchased_delta').notNull(),
    operation: text('operation').notNull(),
    videoId: text('video_id'),
    requestId: text('request_id'),
    /** For a refund, the charge it reverses. */
    refundOf: bigint('refund_of', { mode: 'number' }).unique(),
    /** A charge is a hold until the work succeeds; holds left unsettled by a crash are refunded by a sweeper. */
    settledAt: timestamp('settled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('credit_ledger_account_idx').on(t.accountId, t.createdAt)],
);

export const rateCounters = pgTable(
  'rate_counters',
  {
    keyId: text('key_id').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.windowStart] })],
);
