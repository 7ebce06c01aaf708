import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
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

/**
 * Credits reserved before paid work starts (accounts.held_credits is the sum of the held ones). A hold is settled
 * (turned into a charge) when the work is stored, or released when it fails, when someone else paid, or, left by a
 * process that died, by the hold sweep once its job is gone.
 */
export const creditHolds = pgTable(
  'credit_holds',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    amount: integer('amount').notNull(),
    operation: text('operation').notNull(),
    videoId: text('video_id'),
    requestId: text('request_id').notNull(),
    /** The queue and dedup key of the work it pays for: the sweep releases it once no such job lives. */
    jobQueue: text('job_queue'),
    jobKey: text('job_key'),
    /** The caller's job (tasks.id) for work with one (translations, articles, speech-to-text). */
    taskId: text('task_id'),
    status: text('status', { enum: ['held', 'settled', 'released'] })
      .notNull()
      .default('held'),
    /** The charge that settled it. */
    ledgerId: bigint('ledger_id', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (t) => [
    check('hold_amount_positive', sql`${t.amount} > 0`),
    index('credit_holds_task_idx').on(t.taskId),
    index('credit_holds_open_idx').on(t.createdAt).where(sql`${t.status} = 'held'`),
  ],
);
