import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';

/** A watch: a channel tab, a playlist or a search checked on a schedule for videos newer than the last one seen. */
export const watches = pgTable(
  'watches',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** { channel } | { playlist } | { search }: the listing input it reads. */
    target: jsonb('target').notNull(),
    callbackUrl: text('callback_url'),
    transcripts: boolean('transcripts').notNull().default(false),
    lang: text('lang'),
    intervalSeconds: integer('interval_seconds').notNull(),
    /** active | paused */
    status: text('status').notNull().default('active'),
    pausedReason: text('paused_reason'),
    /** Consecutive failed checks; reset by a good one. */
    failures: integer('failures').notNull().default(0),
    lastError: text('last_error'),
    /** Video ids seen at the top of the listing by the last good check; null before the first one. */
    seenVideoIds: jsonb('seen_video_ids'),
    lastCheckedAt: timestamp('last_checked_at', { withTimezone: true }),
    nextCheckAt: timestamp('next_check_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('watches_account_idx').on(t.accountId, t.createdAt),
    index('watches_due_idx').on(t.status, t.nextCheckAt),
  ],
);

/** What a watch found: one row per new video and step, so a video is announced once whoever checks. */
export const watchEvents = pgTable(
  'watch_events',
  {
    id: text('id').primaryKey(),
    watchId: text('watch_id')
      .notNull()
      .references(() => watches.id, { onDelete: 'cascade' }),
    videoId: text('video_id').notNull(),
    /** video_published | transcript_ready | transcript_refused | transcript_failed */
    kind: text('kind').notNull(),
    title: text('title'),
    detail: text('detail'),
    creditsCharged: integer('credits_charged').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('watch_events_once_idx').on(t.watchId, t.videoId, t.kind),
    index('watch_events_watch_idx').on(t.watchId, t.createdAt),
  ],
);
