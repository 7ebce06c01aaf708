import { isEmailAddress } from '../accounts/email-address.ts';
import { ServiceError } from '../errors.ts';
import type { Stores } from '../stores.ts';
import { newId } from '../ids.ts';
import { generateApiKey } from './api-key.ts';

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

export async function ensureAccount(
  { accounts }: Pick<Stores, 'accounts'>,
  email: string,
): Promise<{ id: string; email: string; created: boolean }> {
  const normalized = email.trim().toLowerCase();
  if (!isEmailAddress(normalized)) {
    throw new ServiceError('INVALID_REQUEST', `Not an email address: ${JSON.stringify(email.slice(0, 300))}`);
  }
  const { id, created } = await accounts.ensure(normalized);
  return { id, email: normalized, created };
}

/** The account with this email, or null; never creates one. */
export async function findAccount(
  { accounts }: Pick<Stores, 'accounts'>,
  email: string,
): Promise<{ id: string; email: string } | null> {
  const normalized = email.trim().toLowerCase();
  const row = await accounts.findByEmail(normalized);
  return row ? { id: row.id, email: normalized } : null;
}

export async function createApiKey(
  { apiKeys }: Pick<Stores, 'apiKeys'>,
  input: { accountId: string; name: string; expiresAt?: Date | null; rateLimit?: number | null },
): Promise<{ id: string; key: string; prefix: string }> {
  const name = input.name.trim();
  if (!name || name.length > 100) throw new ServiceError('INVALID_REQUEST', 'A key name must be 1 to 100 characters');
  if (input.expiresAt && input.expiresAt.getTime() <= Date.now()) {
    throw new ServiceError('INVALID_REQUEST', 'expiresAt must be in the future');
  }
  const { key, prefix, hash } = generateApiKey();
  const id = newId('key');
  await apiKeys.insert({
    id,
    accountId: input.accountId,
    name,
    prefix,
    hash,
    expiresAt: input.expiresAt ?? null,
    rateLimit: input.rateLimit ?? null,
  });
  return { id, key, prefix };
}

export async function listApiKeys({ apiKeys }: Pick<Stores, 'apiKeys'>, accountId: string): Promise<KeyListing[]> {
  const rows = await apiKeys.list(accountId);
  const now = Date.now();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    createdAt: r.createdAt.toISOString(),
    lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
    expiresAt: r.expiresAt?.toISOString() ?? null,
    revokedAt: r.revokedAt?.toISOString() ?? null,
    status: r.revokedAt ? 'revoked' : r.expiresAt && r.expiresAt.getTime() <= now ? 'expired' : 'active',
  }));
}

/** Revokes one of the account's keys; effective on the next request, on every instance. */
export async function revokeApiKey(
  { apiKeys }: Pick<Stores, 'apiKeys'>,
  accountId: string,
  keyId: string,
): Promise<boolean> {
  return apiKeys.revoke(accountId, keyId);
}
