// Whether a new job may join a queue: refused when the queue is saturated, or when the caller already holds its share.
// Counted live from pg-boss's job table.
import type { Sql } from '../../../db/client.ts';
import { ServiceError } from '../../domain/errors.ts';

/**
 * Refused only when the new job would have to wait behind `maxWaiting` others. Joining a job already queued or running
 * under this key adds no work, so it is never refused. The capacity is this instance's concurrency: an estimate when
 * several instances work the queue.
 */
export async function refuseWhenSaturated(
  sql: Sql,
  name: string,
  key: string,
  { concurrency, maxWaiting, work }: { concurrency: number; maxWaiting: number; work: string },
) {
  const { waiting, active, same } = await pressure(sql, name, key);
  const wouldWait = waiting > 0 || active >= concurrency;
  if (same === 0 && wouldWait && waiting >= maxWaiting) {
    // Each queue names its own work: a translation refused is not told about extraction.
    throw new ServiceError('SERVICE_BUSY', `${work} capacity is saturated; retry shortly`, 5);
  }
  // Joining a job already queued or running under this key adds no work, so it is never refused.
  return { wouldWait, joining: same > 0 };
}

/**
 * One account's share of a queue: at most QUEUE_MAX_WAITING_PER_ACCOUNT of its jobs queued or running, and of those
 * waiting at most half of QUEUE_MAX_WAITING (rounded up), so one caller's slow work can never fill the waiting budget
 * every other account shares. A limit on the caller's share, not on its credits: 429, not 402.
 */
export async function refuseOverAccountShare(
  sql: Sql,
  name: string,
  account: string,
  wouldWait: boolean,
  limits: { perAccount: number; maxWaiting: number },
) {
  if (limits.perAccount <= 0) return;
  const mine = await accountJobs(sql, name, account);
  const waitingShare = Math.max(1, Math.ceil(limits.maxWaiting / 2));
  if (mine.live >= limits.perAccount || (wouldWait && mine.waiting >= waitingShare)) {
    throw new ServiceError(
      'RATE_LIMITED',
      `This account already has ${mine.live} jobs of this kind queued or running (at most ${limits.perAccount}, ${waitingShare} of them waiting); retry when one finishes`,
      5,
    );
  }
}

/** One account's jobs on `name`, waiting and in all (its jobs carry the account as their pg-boss group). */
async function accountJobs(sql: Sql, name: string, account: string) {
  const [row] = await sql<{ waiting: number; live: number }[]>`
    select count(*) filter (where state in ('created', 'retry'))::int as waiting, count(*)::int as live
    from pgboss.job where name = ${name} and group_id = ${account} and state in ('created', 'retry', 'active')`;
  return row ?? { waiting: 0, live: 0 };
}

/**
 * Live counts from the job table. pg-boss's getQueue() counts are a cache its monitor refreshes about once a
 * minute, far too stale to notice a burst filling the queue.
 */
async function pressure(sql: Sql, name: string, key: string) {
  const [row] = await sql<{ waiting: number; active: number; same: number }[]>`
    select count(*) filter (where state in ('created', 'retry'))::int as waiting,
           count(*) filter (where state = 'active')::int as active,
           count(*) filter (where singleton_key = ${key})::int as same
    from pgboss.job where name = ${name} and state in ('created', 'retry', 'active')`;
  return row ?? { waiting: 0, active: 0, same: 0 };
}
