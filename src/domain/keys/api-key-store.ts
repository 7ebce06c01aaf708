// Persistence ports of API keys and request counters; implemented in src/infra/postgres (api-keys.ts, last-used.ts).
import type { Caller } from './caller.ts';

interface StoredKey {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

export interface ApiKeyStore {
  insert(k: {
    id: string;
    accountId: string;
    name: string;
    prefix: string;
    hash: string;
    expiresAt?: Date | null;
    rateLimit?: number | null;
  }): Promise<void>;
  list(accountId: string): Promise<StoredKey[]>;
  /** False when the account has no key with this id. */
  revoke(accountId: string, keyId: string): Promise<boolean>;
  /**
   * The caller behind a live (unrevoked, unexpired) key's hash, and `n` requests counted against its current
   * window, in one statement: `count` is the window's count including them (null when `n` is 0). Nothing is
   * counted for an unknown key.
   */
  findCallerAndCount(
    hash: string,
    windowStart: Date,
    n: number,
  ): Promise<{ caller: Caller; count: number | null } | null>;
  /** Counts `n` requests in the window of a counter that is not a key (a website account), atomically. */
  countRequests(counterKey: string, windowStart: Date, n: number): Promise<number>;
  pruneRateCounters(): Promise<void>;
}

/** Keys' last use, recorded off the request path. */
export interface LastUsedRecorder {
  touch(keyId: string): void;
  flush(): Promise<void>;
  stop(): Promise<void>;
}
