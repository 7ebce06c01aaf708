import { index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';

/**
 * What each account has obtained as an MCP resource (a transcript, translation, article or frame it fetched or
 * read): `resources/list` lists these, the account's own, newest first. The content itself stays where it is stored.
 */
export const accountResources = pgTable(
  'account_resources',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    uri: text('uri').notNull(),
    name: text('name').notNull(),
    title: text('title').notNull(),
    mimeType: text('mime_type').notNull(),
    /** Last fetched or read: the listing's order. */
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.uri] }),
    index('account_resources_seen_idx').on(t.accountId, t.seenAt.desc(), t.uri),
  ],
);
