import type { Sql } from '../../../db/client.ts';
import type { LastUsedRecorder } from '../../domain/keys/api-key-store.ts';

/**
 * Records keys' last use off the request path: uses are collected in memory and written
 * in one statement every few seconds, so a request never waits on this write.
 */
export function createLastUsedRecorder(sql: Sql, intervalMs = 5_000): LastUsedRecorder {
  let pending = new Map<string, Date>();
  const flush = async () => {
    if (pending.size === 0) return;
    const batch = pending;
    pending = new Map();
    const ids = [...batch.keys()];
    const times = ids.map((id) => batch.get(id)!.toISOString());
    await sql`
      update api_keys k set last_used_at = greatest(k.last_used_at, u.at::timestamptz)
      from unnest(${ids}::text[], ${times}::text[]) as u(id, at) where k.id = u.id`.catch(() => {
      // A failed flush only loses "last used" precision; never worth failing a request over.
    });
  };
  const timer = setInterval(() => void flush(), intervalMs);
  timer.unref();
  return {
    touch(keyId: string) {
      pending.set(keyId, new Date());
    },
    flush,
    stop: async () => {
      clearInterval(timer);
      await flush();
    },
  };
}
