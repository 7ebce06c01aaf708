import { ServiceError } from '../errors.ts';
import { windowOf, type RateLimitState } from '../rate-limit/rate-limit.ts';
import type { Stores } from '../stores.ts';
import { hashApiKey } from './api-key.ts';
import type { Caller } from './manage-keys.ts';

/**
 * The hot path's one round trip: finds the key's caller and counts the request against its
 * rate-limit window in a single statement. Same rules as authenticateApiKey + consumeRateLimit.
 */
export async function authenticateAndCount(
  { apiKeys }: Pick<Stores, 'apiKeys'>,
  key: string | null,
  defaultLimit: number,
  now = Date.now(),
): Promise<{ caller: Caller; rateLimit: RateLimitState }> {
  if (!key) throw new ServiceError('INVALID_API_KEY', 'Missing API key: send "Authorization: Bearer <key>" or "x-api-key: <key>"');
  const { start, reset } = windowOf(now);
  const found = await apiKeys.findCallerAndCount(hashApiKey(key), start);
  if (!found) throw new ServiceError('INVALID_API_KEY', 'The API key is invalid, revoked or expired');
  const limit = found.caller.rateLimit ?? defaultLimit;
  return {
    caller: found.caller,
    rateLimit: { limit, remaining: Math.max(0, limit - found.count), reset, allowed: found.count <= limit },
  };
}
