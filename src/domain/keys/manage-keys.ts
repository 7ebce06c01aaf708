import type { Sql } from '../../../db/client.ts';
import { ServiceError } from '../errors.ts';
import { newId } from '../ids.ts';
import { generateApiKey, hashApiKey } from './api-key.ts';

export interface Caller {
  accountId: string;
  keyId: string;
  /** Requests per minute allowed for this key, or null for the service default. */
  rateLimit: number | null;
}

export interface KeyListing {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  status: 'active' | 'revoked' | 'expired';
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export async function ensureAccount(sql: Sql, email: string): Promise<{ id: string; email: string; created: boolean }> {
  const normalized = email.trim().toLowerCase();
  if (!EMAIL.test(normalized) || normalized.length > 254) {
    throw new ServiceError('INVALID_REQUEST', `Not an email address: ${JSON.stringify(email)}`);
  }
  const inserted = await sql<{ id: string }[]>`
    insert into accounts (id, email) values (${newId('acc')}, ${normalized})
    on conflict (email) do nothing returning id`;
  if (inserted[0]) return { id: inserted[0].id, email: normalized, created: true };
  const [row] = await sql<{ id: string }[]>`select id from accounts where email = ${normalized}`;
  return { id: row!.id, email: normalized, created: false };
}

/** The account with this email, or null; never creates one. */
export async function findAccount(sql: Sql, email: string): Promise<{ id: string; email: string } | null> {
  const normalized = email.trim().toLowerCase();
  const [row] = await sql<{ id: string }[]>`select id from accounts where email = ${normalized}`;
  return row ? { id: row.id, email: normalized } : null;
}

export async function createApiKey(
  sql: Sql,
  input: { accountId: string; name: string; expiresAt?: Date | null; rateLimit?: number | null },
): Promise<{ id: string; key: string; prefix: string }> {
  const name = input.name.trim();
  if (!name || name.length > 100) throw new ServiceError('INVALID_REQUEST', 'A key name must be 1 to 100 characters');
  if (input.expiresAt && input.expiresAt.getTime() <= Date.now()) {
    throw new ServiceError('INVALID_REQUEST', 'expiresAt must be in the future');
  }
  const { key, prefix, hash } = generateApiKey();
  const id = newId('key');
  await sql`
    insert into api_keys (id, account_id, name, prefix, hash, expires_at, rate_limit_per_minute)
    values (${id}, ${input.accountId}, ${name}, ${prefix}, ${hash}, ${input.expiresAt?.toISOString() ?? null}::timestamptz, ${input.rateLimit ?? null})`;
  return { id, key, prefix };
}

export async function listApiKeys(sql: Sql, accountId: string): Promise<KeyListing[]> {
  const rows = await sql<
    { id: string; name: string; prefix: string; created_at: Date; last_used_at: Date | null; expires_at: Date | null; revoked_at: Date | null }[]
  >`select id, name, prefix, created_at, last_used_at, expires_at, revoked_at
    from api_keys where account_id = ${accountId} order by created_at desc`;
  const now = Date.now();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    createdAt: r.created_at.toISOString(),
    lastUsedAt: r.last_used_at?.toISOString() ?? null,
    expiresAt: r.expires_at?.toISOString() ?? null,
    revokedAt: r.revoked_at?.toISOString() ?? null,
    status: r.revoked_at ? 'revoked' : r.expires_at && r.expires_at.getTime() <= now ? 'expired' : 'active',
  }));
}

/** Revokes one of the account's keys; effective on the next request, on every instance. */
export async function revokeApiKey(sql: Sql, accountId: string, keyId: string): Promise<boolean> {
  const rows = await sql`
    update api_keys set revoked_at = coalesce(revoked_at, now())
    where id = ${keyId} and account_id = ${accountId} returning id`;
  return rows.length > 0;
}

/** Finds the caller behind a key, or throws INVALID_API_KEY without saying which check failed. */
export async function authenticateApiKey(sql: Sql, key: string | null): Promise<Caller> {
  if (!key) throw new ServiceError('INVALID_API_KEY', 'Missing API key: send "Authorization: Bearer <key>" or "x-api-key: <key>"');
  // Looked up by hash, so timing reveals nothing about how much of a guess was right.
  const [row] = await sql<{ id: string; account_id: string; rate_limit: number | null }[]>`
    select k.id, k.account_id, coalesce(k.rate_limit_per_minute, a.rate_limit_per_minute) as rate_limit
    from api_keys k join accounts a on a.id = k.account_id
    where k.hash = ${hashApiKey(key)} and k.revoked_at is null and (k.expires_at is null or k.expires_at > now())`;
  if (!row) throw new ServiceError('INVALID_API_KEY', 'The API key is invalid, revoked or expired');
  return { accountId: row.account_id, keyId: row.id, rateLimit: row.rate_limit };
}
