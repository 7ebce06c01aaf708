/**
 * A small in-process cache in front of PostgreSQL for data that rarely changes (stored transcripts,
 * video rows): bounded by an estimate of bytes, least recently used first out, entries expiring after
 * their TTL. Postgres stays the truth; a miss just reads it again.
 */
export function createLruCache<V>(opts: { maxBytes: number }) {
  const entries = new Map<string, { value: V; bytes: number; expires: number }>();
  let bytes = 0;
  // Lookups since start, for the hit ratio on /metrics.
  let hits = 0;
  let misses = 0;
  const drop = (key: string) => {
    const e = entries.get(key);
    if (e) {
      bytes -= e.bytes;
      entries.delete(key);
    }
  };
  return {
    get(key: string, now = Date.now()): V | undefined {
      const e = entries.get(key);
      if (!e) {
        misses++;
        return undefined;
      }
      if (e.expires <= now) {
        drop(key);
        misses++;
        return undefined;
      }
      hits++;
      // Re-insert: Map keeps insertion order, so the oldest use is first.
      entries.delete(key);
      entries.set(key, e);
      return e.value;
    },
    set(key: string, value: V, size: number, ttlMs: number, now = Date.now()) {
      drop(key);
      if (size > opts.maxBytes) return;
      entries.set(key, { value, bytes: size, expires: now + ttlMs });
      bytes += size;
      for (const oldest of entries.keys()) {
        if (bytes <= opts.maxBytes) break;
        drop(oldest);
      }
    },
    /** A new size for an entry that grew (a value filled in lazily); the budget is enforced again. */
    resize(key: string, size: number) {
      const e = entries.get(key);
      if (!e) return;
      bytes += size - e.bytes;
      e.bytes = size;
      for (const oldest of entries.keys()) {
        if (bytes <= opts.maxBytes) break;
        drop(oldest);
      }
    },
    /** Bytes held, by the sizes given. */
    get bytes() {
      return bytes;
    },
    delete: drop,
    get size() {
      return entries.size;
    },
    stats: () => ({ hits, misses, entries: entries.size, bytes }),
  };
}
