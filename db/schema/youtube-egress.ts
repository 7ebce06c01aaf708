import { bigint, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** Each egress identity YouTube traffic leaves from ("direct" or a proxy): its hourly budget and cool-down. */
export const youtubeIdentities = pgTable('youtube_identities', {
  id: text('id').primaryKey(),
  /** Start of the current one-hour budget window; null before the first request. */
  windowStart: timestamp('window_start', { withTimezone: true }),
  used: integer('used').notNull().default(0),
  coolingUntil: timestamp('cooling_until', { withTimezone: true }),
  /** Refusals in a row (bot check, 429, sign-in wall): the cool-down doubles with each. */
  strikes: integer('strikes').notNull().default(0),
  lastReason: text('last_reason'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** What each client's attempts came to, per hour, purpose, identity and kind (served, bot_check, ...). */
export const youtubeOutcomes = pgTable(
  'youtube_outcomes',
  {
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    client: text('client').notNull(),
    purpose: text('purpose').notNull(),
    identity: text('identity').notNull(),
    kind: text('kind').notNull(),
    count: bigint('count', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ name: 'youtube_outcomes_pk', columns: [t.hour, t.client, t.purpose, t.identity, t.kind] })],
);

/**
 * Bytes sent and received through each residential egress identity, per clock hour and purpose (paid by the byte):
 * the hourly and daily budgets are sums over these rows, checked under an advisory lock by every instance.
 */
export const youtubeResidentialBytes = pgTable(
  'youtube_residential_bytes',
  {
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    identity: text('identity').notNull(),
    purpose: text('purpose').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ name: 'youtube_residential_bytes_pk', columns: [t.hour, t.identity, t.purpose] })],
);

/**
 * Each build (variant: web, tv) of each YouTube player script the service deciphered stream URLs with, and when it
 * last worked or failed: `youtube status` shows the newest per variant.
 */
export const youtubePlayerScripts = pgTable(
  'youtube_player_scripts',
  {
    variant: text('variant').notNull(),
    playerId: text('player_id').notNull(),
    firstUsed: timestamp('first_used', { withTimezone: true }).notNull().defaultNow(),
    lastOk: timestamp('last_ok', { withTimezone: true }),
    lastFailed: timestamp('last_failed', { withTimezone: true }),
    lastError: text('last_error'),
  },
  (t) => [primaryKey({ name: 'youtube_player_scripts_pk', columns: [t.variant, t.playerId] })],
);
