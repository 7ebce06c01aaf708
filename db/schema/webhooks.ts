import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';

/** One event for one job's callbackUrl; retried until delivered or a day has passed. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    /** The Standard Webhooks message id (webhook-id header): msg_... */
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    jobId: text('job_id').notNull(),
    url: text('url').notNull(),
    event: text('event').notNull(),
    /** The exact JSON body signed and sent (the same bytes on every attempt). */
    body: text('body').notNull(),
    /** pending | delivered | failed */
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    /** Set on a resend: the delivery it was resent from (resends are counted to bound them). */
    resentFrom: text('resent_from'),
  },
  (t) => [
    index('webhook_deliveries_job_idx').on(t.jobId, t.createdAt),
    index('webhook_deliveries_account_idx').on(t.accountId, t.createdAt),
    index('webhook_deliveries_resends_idx').on(t.accountId, t.createdAt).where(sql`${t.resentFrom} is not null`),
  ],
);

export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    deliveryId: text('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    statusCode: integer('status_code'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
  },
  (t) => [primaryKey({ columns: [t.deliveryId, t.attempt] })],
);
