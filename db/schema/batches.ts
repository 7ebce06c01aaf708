import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';

/** A batch: one operation over up to BATCH_MAX_VIDEOS videos, one child job (batch_items row) per video. */
export const batches = pgTable(
  'batches',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** running | succeeded | failed | cancelled */
    status: text('status').notNull(),
    operation: jsonb('operation').notNull(),
    /** What the videos came from (ids, a playlist, a channel tab, a search). */
    source: jsonb('source').notNull(),
    callbackUrl: text('callback_url'),
    requestId: text('request_id').notNull(),
    /** Listing pages fetched to find the videos: free lookups unless a video of the batch pays. */
    listingPages: integer('listing_pages').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('batches_account_created_idx').on(t.accountId, t.createdAt)],
);

export const batchItems = pgTable(
  'batch_items',
  {
    batchId: text('batch_id')
      .notNull()
      .references(() => batches.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    videoId: text('video_id').notNull(),
    /** queued | running | succeeded | failed | cancelled */
    status: text('status').notNull(),
    /** The request id the item's charge is recorded under (credit_ledger.request_id). */
    requestId: text('request_id').notNull(),
    result: jsonb('result'),
    error: jsonb('error'),
    creditsCharged: integer('credits_charged').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.batchId, t.position] })],
);
