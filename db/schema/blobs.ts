import { customType, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });

/** The default blob store: small images kept beside the rest of the state. */
export const blobs = pgTable('blobs', {
  key: text('key').primaryKey(),
  mimeType: text('mime_type').notNull(),
  bytes: bytea('bytes').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Instance-wide settings generated once (e.g. the URL signing secret when none is configured). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});
