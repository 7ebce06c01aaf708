// Persistence ports of API keys and request counters; implemented in src/infra/postgres (api-keys.ts, last-used.ts).
import type { Caller } from './manage-keys.ts';

export interface StoredKey {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

export interface ApiKeyStore {
  insert(k: { id: string; accountId: string; name: string; prefix: string; hash: string; expiresAt?: Date | null; rateLimit?: number | null }): Promise<void>;
  list(accountId: string): Promise<StoredKey[]>;
  /** False when the account has no key with this id. */
  revoke(accountId: string, keyId: string): Promise<boolean>;
  /** The caller behind a live (unrevoked, unexpired) key's hash. */
  findCaller(hash: string): Promise<Caller | null>;
  /** findCaller and countRequest in one statement: the hot path's one round trip. Nothing is counted for an unknown key. */
  findCallerAndCount(hash: string, windowStart: Date): Promise<{ caller: Caller; count: number } | null>;
  /** Counts one request in the window, atomically; the count including this one. */
  countRequest(counterKey: string, windowStart: Date): Promise<number>;
  pruneRateCounters(): Promise<void>;
}

/** Keys' last use, recorded off the request path. */
export interface LastUsedRecorder {
  touch(keyId: string): void;
  flush(): Promise<void>;
  stop(): Promise<void>;
}
