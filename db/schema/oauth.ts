import { boolean, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';

/** OAuth clients registered dynamically (RFC 7591) by MCP clients. Public clients: no secret, PKCE instead. */
export const oauthClients = pgTable('oauth_clients', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  /** Exact redirect URIs; an authorization request naming any other is refused without redirecting. */
  redirectUris: jsonb('redirect_uris').$type<string[]>().notNull(),
  /** The registration as accepted, returned to the client. */
  metadata: jsonb('metadata').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Authorization codes: single use, a minute long, bound to client, redirect URI, PKCE challenge and resource. */
export const oauthCodes = pgTable('oauth_codes', {
  /** SHA-256 of the code, hex. */
  codeHash: text('code_hash').primaryKey(),
  clientId: text('client_id')
    .notNull()
    .references(() => oauthClients.id, { onDelete: 'cascade' }),
  accountId: text('account_id')
    .notNull()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  redirectUri: text('redirect_uri').notNull(),
  /** The authorization request named redirect_uri itself: the exchange must then repeat it (RFC 6749 4.1.3). */
  redirectUriGiven: boolean('redirect_uri_given').notNull().default(true),
  codeChallenge: text('code_challenge').notNull(),
  resource: text('resource').notNull(),
  scope: text('scope').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  /** The grant this code was exchanged for: revoked if the code is presented again. */
  grantId: text('grant_id'),
});

/**
 * What an account allowed a client to do: the refresh token (rotated at each use; every one rotated away is kept in
 * oauth_used_refresh_tokens to detect reuse) and the access tokens minted from it act for the account until the grant
 * is revoked.
 */
export const oauthGrants = pgTable(
  'oauth_grants',
  {
    id: text('id').primaryKey(),
    clientId: text('client_id')
      .notNull()
      .references(() => oauthClients.id, { onDelete: 'cascade' }),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    scope: text('scope').notNull(),
    resource: text('resource').notNull(),
    /** SHA-256 of the current refresh token, hex. */
    refreshHash: text('refresh_hash').notNull().unique(),
    refreshExpiresAt: timestamp('refresh_expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('oauth_grants_account_idx').on(t.accountId)],
);

/** The grant's refresh-token family: every token it rotated away. One presented again is stolen or replayed. */
export const oauthUsedRefreshTokens = pgTable('oauth_used_refresh_tokens', {
  /** SHA-256 of the rotated-away token, hex. */
  refreshHash: text('refresh_hash').primaryKey(),
  grantId: text('grant_id')
    .notNull()
    .references(() => oauthGrants.id, { onDelete: 'cascade' }),
  usedAt: timestamp('used_at', { withTimezone: true }).notNull().defaultNow(),
});
