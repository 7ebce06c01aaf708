type Entry<V> = { value: V; bytes: number; expires: number };

/** One cache's entries (least recently used first), their bytes, and the lookups since start. */
type LruState<V> = {
  entries: Map<string, Entry<V>>;
  bytes: number;
  maxBytes: number;
  hits: number;
  misses: number;
};

function drop<V>(s: LruState<V>, key: string): void {
  const e = s.entries.get(key);
  if (e) {
    s.bytes -= e.bytes;
    s.entries.delete(key);
  }
}

/** Drops the least recently used entries until the budget holds. */
function evictOverBudget<V>(s: LruState<V>): void {
  for (const oldest of s.entries.keys()) {
    if (s.bytes <= s.maxBytes) break;
    drop(s, oldest);
  }
}

function lookup<V>(s: LruState<V>, key: string, now: number): V | undefined {
  const e = s.entries.get(key);
  if (!e) {
    s.misses++;
    return undefined;
  }
  if (e.expires <= now) {
    drop(s, key);
    s.misses++;
    return undefined;
  }
  s.hits++;
  // Re-insert: Map keeps insertion order, so the oldest use is first.
  s.entries.delete(key);
  s.entries.set(key, e);
  return e.value;
}

/**
 * A small in-process cache in front of PostgreSQL for data that rarely changes (stored transcripts,
 * video rows): bounded by an estimate of bytes, least recently used first out, entries expiring after
 * their TTL. Postgres stays the truth; a miss just reads it again.
 */
export function createLruCache<V>(opts: { maxBytes: number }) {
  // Lookups since start (hits, misses), for the hit ratio on /metrics.
  const s: LruState<V> = { entries: new Map(), bytes: 0, maxBytes: opts.maxBytes, hits: 0, misses: 0 };
  return {
    get(key: string, now = Date.now()): V | undefined {
      return lookup(s, key, now);
    },
    set(key: string, value: V, size: number, ttlMs: number, now = Date.now()) {
      drop(s, key);
      if (size > opts.maxBytes) return;
      s.entries.set(key, { value, bytes: size, expires: now + ttlMs });
      s.bytes += size;
      evictOverBudget(s);
    },
    /** A new size for an entry that grew (a value filled in lazily); the budget is enforced again. */
    resize(key: string, size: number) {
      const e = s.entries.get(key);
      if (!e) return;
      s.bytes += size - e.bytes;
      e.bytes = size;
      evictOverBudget(s);
    },
    /** Bytes held, by the sizes given. */
    get bytes() {
      return s.bytes;
    },
    delete: (key: string) => drop(s, key),
    get size() {
      return s.entries.size;
    },
    stats: () => ({ hits: s.hits, misses: s.misses, entries: s.entries.size, bytes: s.bytes }),
  };
}
