import type { Sql } from '../../db/client.ts';

/**
 * A semaphore across every instance: at most `capacity` holders of `name` at once, wherever they run.
 * A slot is a session advisory lock held on a reserved connection, so a worker that dies releases
 * its slot with its connection. pg-boss's own concurrency is per instance (and groupConcurrency is
 * best effort), which is why the cap is enforced here.
 */
export async function withGlobalSlot<T>(
  sql: Sql,
  name: string,
  capacity: number,
  work: () => Promise<T>,
  opts: { pollMs?: number; signal?: AbortSignal } = {},
): Promise<T> {
  const conn = await sql.reserve();
  let slot = -1;
  try {
    while (slot < 0) {
      opts.signal?.throwIfAborted();
      for (let i = 0; i < capacity && slot < 0; i++) {
        const [row] = await conn<{ ok: boolean }[]>`select pg_try_advisory_lock(hashtext(${'subtext:' + name}), ${i}) as ok`;
        if (row!.ok) slot = i;
      }
      if (slot < 0) await new Promise((r) => setTimeout(r, (opts.pollMs ?? 50) * (0.5 + Math.random())));
    }
    return await work();
  } finally {
    if (slot >= 0) await conn`select pg_advisory_unlock(hashtext(${'subtext:' + name}), ${slot})`.catch(() => {});
    conn.release();
  }
}
