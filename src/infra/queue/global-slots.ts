import { randomUUID } from 'node:crypto';
import type { Sql } from '../../../db/client.ts';

export interface SlotOptions {
  /** How long a slot stays taken without renewal: a dead worker's slot frees itself after this. */
  leaseSeconds?: number;
  pollMs?: number;
  signal?: AbortSignal;
}

/**
 * A semaphore across every instance: at most `capacity` holders of `name` at once, wherever they run.
 * pg-boss's own concurrency is per instance (and groupConcurrency best effort), so the cap is enforced
 * here with leased rows. No connection is held while working, so a database restart or a dead worker
 * costs at most one lease.
 */
export async function withGlobalSlot<T>(
  sql: Sql,
  name: string,
  capacity: number,
  work: () => Promise<T>,
  opts: SlotOptions = {},
): Promise<T> {
  const lease = opts.leaseSeconds ?? 30;
  const holder = randomUUID();
  await sql`insert into job_slots (queue, slot) select ${name}, g from generate_series(0, ${capacity - 1}::int) g on conflict do nothing`;
  let slot: number | undefined;
  while (slot === undefined) {
    opts.signal?.throwIfAborted();
    const [row] = await sql<{ slot: number }[]>`
      update job_slots s set holder = ${holder}, lease_until = now() + make_interval(secs => ${lease})
      from (
        select queue, slot from job_slots
        where queue = ${name} and slot < ${capacity} and (holder is null or lease_until < now())
        order by slot limit 1 for update skip locked
      ) free
      where s.queue = free.queue and s.slot = free.slot
      returning s.slot`;
    if (row) slot = row.slot;
    else await new Promise((r) => setTimeout(r, (opts.pollMs ?? 50) * (0.5 + Math.random())));
  }
  const renew = setInterval(
    () => {
      void sql`update job_slots set lease_until = now() + make_interval(secs => ${lease})
             where queue = ${name} and slot = ${slot} and holder = ${holder}`.catch(() => {});
    },
    (lease * 1000) / 3,
  );
  try {
    return await work();
  } finally {
    clearInterval(renew);
    await sql`update job_slots set holder = null, lease_until = null where queue = ${name} and slot = ${slot} and holder = ${holder}`.catch(
      () => {
        // The database is away: the lease runs out by itself.
      },
    );
  }
}
