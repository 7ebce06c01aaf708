// Counters of lookups that reach upstream, in the rate-limit counter table under their own keys (`lookup:<account
// id>` per account, `lookup-unpaid:<account id>` for a paying caller's lookups whose request paid nothing,
// `lookup-open:<account id>` for its paying requests under way, `lookup-listing:<account id>` for the pages of its
// batches' listings under way, `lookup-claim:<account id>` for the credits its covered listings under way claim,
// `lookup-egress` for the cluster), so the existing clean-up drops old windows. One statement each: concurrent
// lookups on any instance cannot both see the last place.
import type { Sql } from '../../../db/client.ts';
import { type LookupCounters, OPEN_REQUEST_WINDOW_MS } from '../../domain/admission/lookup-admission.ts';

export function createLookupCounters(sql: Sql): LookupCounters {
  const count = async (key: string, windowStart: Date, add = 1) => {
    const [row] = await sql<{ count: number }[]>`
      insert into rate_counters (key_id, window_start, count)
      values (${key}, ${windowStart.toISOString()}::timestamptz, ${add}::int)
      on conflict (key_id, window_start) do update set count = rate_counters.count + ${add}::int
      returning count`;
    return row!.count;
  };
  const read = async (key: string, windowStart: Date) => {
    const [row] = await sql<{ count: number }[]>`
      select count from rate_counters where key_id = ${key} and window_start = ${windowStart.toISOString()}::timestamptz`;
    return row?.count ?? 0;
  };
  /** Things under way, counted in short windows: this window's count as the upsert left it, plus the last window's. */
  const underWay = async (key: string, windowStart: Date, delta: number) => {
    // Concurrent callers each see the ones counted before them (the upsert answers the count including itself).
    const previous = new Date(windowStart.getTime() - OPEN_REQUEST_WINDOW_MS);
    const [now, before] = await Promise.all([
      delta !== 0 ? count(key, windowStart, delta) : read(key, windowStart),
      read(key, previous),
    ]);
    return Math.max(0, now + before);
  };
  return {
    unpaid: (accountId, windowStart, add) =>
      add > 0 ? count(`lookup-unpaid:${accountId}`, windowStart, add) : read(`lookup-unpaid:${accountId}`, windowStart),
    account: (accountId, windowStart) => count(`lookup:${accountId}`, windowStart),
    cluster: (windowStart) => count('lookup-egress', windowStart),
    openPaid: (accountId, windowStart, delta) => underWay(`lookup-open:${accountId}`, windowStart, delta),
    listingPages: (accountId, windowStart, delta) => underWay(`lookup-listing:${accountId}`, windowStart, delta),
    listingClaims: (accountId, windowStart, delta) => underWay(`lookup-claim:${accountId}`, windowStart, delta),
    async openBatchPages(accountId) {
      const [row] = await sql<{ pages: number }[]>`
        select coalesce(sum(b.listing_pages), 0)::int as pages from batches b
        where b.account_id = ${accountId} and b.status = 'running' and b.listing_pages > 0
          and not exists (
            select 1 from batch_items i
            where i.batch_id = b.id and i.credits_charged > 0)`;
      return row?.pages ?? 0;
    },
    async requestPaid(accountId, requestId) {
      const [row] = await sql<{ paid: boolean }[]>`
        select (
          select coalesce(-sum(delta), 0) from credit_ledger
          where account_id = ${accountId} and request_id = ${requestId} and kind in ('charge', 'refund')
        ) > 0 or exists (
          select 1 from credit_holds where account_id = ${accountId} and request_id = ${requestId} and status = 'held'
        ) as paid`;
      return row?.paid ?? false;
    },
  };
}
