import type { Sql } from '../../../db/client.ts';
import type { Grant, GrantListing, OAuthStore, StoredCode } from '../../domain/oauth/ports.ts';
import { countRequests } from './rate-counters.ts';
import { jsonValue } from './json-value.ts';

export function createOAuthStore(sql: Sql): OAuthStore {
  return { ...clients(sql), ...authorizationCodes(sql), ...refreshTokens(sql), ...grantUse(sql) };
}

function clients(sql: Sql): Pick<OAuthStore, 'saveClient' | 'upsertClient' | 'findClient'> {
  return {
    async saveClient(c) {
      await sql`insert into oauth_clients (id, name, redirect_uris, metadata)
                values (${c.id}, ${c.name}, ${sql.json(c.redirectUris)}, ${sql.json(jsonValue(c.metadata))})`;
    },
    async upsertClient(c) {
      await sql`insert into oauth_clients (id, name, redirect_uris, metadata)
                values (${c.id}, ${c.name}, ${sql.json(c.redirectUris)}, ${sql.json(jsonValue(c.metadata))})
                on conflict (id) do update set name = excluded.name, redirect_uris = excluded.redirect_uris,
                  metadata = excluded.metadata
                where oauth_clients.metadata is distinct from excluded.metadata
                   or oauth_clients.redirect_uris is distinct from excluded.redirect_uris`;
    },
    async findClient(id) {
      if (id.length > 2000) return null;
      const [row] = await sql<
        { id: string; name: string; redirect_uris: string[]; metadata: Record<string, unknown> }[]
      >`
        select id, name, redirect_uris, metadata from oauth_clients where id = ${id}`;
      return row ? { id: row.id, name: row.name, redirectUris: row.redirect_uris, metadata: row.metadata } : null;
    },
  };
}

type CodeRow = {
  client_id: string;
  account_id: string;
  redirect_uri: string;
  redirect_uri_given: boolean;
  code_challenge: string;
  resource: string;
  scope: string;
  fresh: boolean;
  used: boolean;
};

const codeOf = (row: CodeRow): StoredCode => ({
  clientId: row.client_id,
  accountId: row.account_id,
  redirectUri: row.redirect_uri,
  redirectUriGiven: row.redirect_uri_given,
  codeChallenge: row.code_challenge,
  resource: row.resource,
  scope: row.scope,
  fresh: row.fresh,
  used: row.used,
});

function authorizationCodes(
  sql: Sql,
): Pick<OAuthStore, 'saveCode' | 'findCode' | 'spendCodeForGrant' | 'revokeGrantOfUsedCode'> {
  return {
    async saveCode(codeHash, c, ttlSeconds) {
      await sql`insert into oauth_codes (code_hash, client_id, account_id, redirect_uri, redirect_uri_given, code_challenge, resource, scope, expires_at)
                values (${codeHash}, ${c.clientId}, ${c.accountId}, ${c.redirectUri}, ${c.redirectUriGiven}, ${c.codeChallenge}, ${c.resource}, ${c.scope},
                        now() + make_interval(secs => ${ttlSeconds}))`;
    },
    async findCode(codeHash) {
      const [row] = await sql<CodeRow[]>`
        select client_id, account_id, redirect_uri, redirect_uri_given, code_challenge, resource, scope,
               expires_at > now() as fresh, used_at is not null as used
        from oauth_codes where code_hash = ${codeHash}`;
      return row ? codeOf(row) : null;
    },
    async spendCodeForGrant(fromCodeHash, g, refreshHash, refreshTtlSeconds) {
      // The code row stays locked until the grant is committed: a concurrent spend waits, then finds it used, and its
      // replay revocation finds the grant.
      return sql.begin(async (tx) => {
        const spent = await tx`update oauth_codes set used_at = now()
                               where code_hash = ${fromCodeHash} and used_at is null returning code_hash`;
        if (spent.length === 0) return false;
        await tx`insert into oauth_grants (id, client_id, account_id, scope, resource, refresh_hash, refresh_expires_at)
                 values (${g.id}, ${g.clientId}, ${g.accountId}, ${g.scope}, ${g.resource}, ${refreshHash},
                         now() + make_interval(secs => ${refreshTtlSeconds}))`;
        await tx`update oauth_codes set grant_id = ${g.id} where code_hash = ${fromCodeHash}`;
        return true;
      });
    },
    async revokeGrantOfUsedCode(codeHash) {
      await sql`update oauth_grants set revoked_at = coalesce(revoked_at, now())
                where id = (select grant_id from oauth_codes where code_hash = ${codeHash} and used_at is not null)`;
    },
  };
}

type GrantRow = { id: string; client_id: string; account_id: string; scope: string; resource: string };

const grantOf = (row: GrantRow): Grant => ({
  id: row.id,
  clientId: row.client_id,
  accountId: row.account_id,
  scope: row.scope,
  resource: row.resource,
});

function refreshTokens(
  sql: Sql,
): Pick<
  OAuthStore,
  'findLiveRefresh' | 'rotateRefresh' | 'revokeFamilyOfUsedRefresh' | 'revokeByRefresh' | 'revokeGrant'
> {
  return {
    async findLiveRefresh(refreshHash, clientId) {
      const [row] = await sql<GrantRow[]>`
        select id, client_id, account_id, scope, resource from oauth_grants
        where refresh_hash = ${refreshHash} and client_id = ${clientId} and revoked_at is null and refresh_expires_at > now()`;
      return row ? grantOf(row) : null;
    },
    async rotateRefresh(oldHash, newHash, clientId, refreshTtlSeconds) {
      // The swap and the old token's entry in the family are one statement: a replay can never miss it.
      const [row] = await sql<GrantRow[]>`
        with rotated as (
          update oauth_grants set refresh_hash = ${newHash},
                 refresh_expires_at = now() + make_interval(secs => ${refreshTtlSeconds})
          where refresh_hash = ${oldHash} and client_id = ${clientId} and revoked_at is null and refresh_expires_at > now()
          returning id, client_id, account_id, scope, resource
        ), kept as (
          insert into oauth_used_refresh_tokens (refresh_hash, grant_id) select ${oldHash}, id from rotated
        )
        select * from rotated`;
      return row ? grantOf(row) : null;
    },
    async revokeFamilyOfUsedRefresh(oldHash) {
      const rows = await sql`update oauth_grants set revoked_at = coalesce(revoked_at, now())
        where id = (select grant_id from oauth_used_refresh_tokens where refresh_hash = ${oldHash}) returning id`;
      return rows.length > 0;
    },
    async revokeByRefresh(refreshHash) {
      const rows =
        await sql`update oauth_grants set revoked_at = coalesce(revoked_at, now()) where refresh_hash = ${refreshHash} returning id`;
      return rows.length > 0;
    },
    async revokeGrant(grantId, accountId) {
      const rows = accountId
        ? await sql`update oauth_grants set revoked_at = coalesce(revoked_at, now()) where id = ${grantId} and account_id = ${accountId} returning id`
        : await sql`update oauth_grants set revoked_at = coalesce(revoked_at, now()) where id = ${grantId} returning id`;
      return rows.length > 0;
    },
  };
}

function grantUse(sql: Sql): Pick<OAuthStore, 'useGrantAndCount' | 'listGrants' | 'hasLiveGrant'> {
  return {
    async hasLiveGrant(accountId, clientId) {
      const [row] = await sql<{ approved: boolean }[]>`
        select exists (select 1 from oauth_grants where account_id = ${accountId} and client_id = ${clientId}
                       and revoked_at is null and refresh_expires_at > now()) as approved`;
      return row?.approved === true;
    },
    async useGrantAndCount(grantId, windowStart, n) {
      // One statement: the live grant, its "last used" (written at most once a minute), and the requests counted.
      const [row] = await sql<{ account_id: string; rate_limit: number | null; count: number | null }[]>`
        with counted as (
          select g.id, g.account_id, a.rate_limit_per_minute as rate_limit
          from oauth_grants g join accounts a on a.id = g.account_id
          where g.id = ${grantId} and g.revoked_at is null and g.refresh_expires_at > now()
        ), touched as (
          update oauth_grants set last_used_at = now()
          where id = (select id from counted) and (last_used_at is null or last_used_at < now() - interval '1 minute')
        ), c as (${countRequests(sql, windowStart, n)})
        select counted.account_id, counted.rate_limit, (select count from c) as count from counted`;
      return row ? { accountId: row.account_id, rateLimit: row.rate_limit, count: row.count } : null;
    },
    async listGrants(accountId) {
      const rows = await sql<
        {
          id: string;
          client_id: string;
          name: string;
          scope: string;
          created_at: Date;
          last_used_at: Date | null;
          revoked_at: Date | null;
          expired: boolean;
        }[]
      >`select g.id, g.client_id, c.name, g.scope, g.created_at, g.last_used_at, g.revoked_at, g.refresh_expires_at <= now() as expired
        from oauth_grants g join oauth_clients c on c.id = g.client_id
        where g.account_id = ${accountId} order by g.created_at desc limit 200`;
      return rows.map(
        (r): GrantListing => ({
          id: r.id,
          clientId: r.client_id,
          clientName: r.name,
          scope: r.scope,
          createdAt: r.created_at.toISOString(),
          lastUsedAt: r.last_used_at?.toISOString() ?? null,
          revokedAt: r.revoked_at?.toISOString() ?? null,
          status: r.revoked_at ? 'revoked' : r.expired ? 'expired' : 'active',
        }),
      );
    },
  };
}
