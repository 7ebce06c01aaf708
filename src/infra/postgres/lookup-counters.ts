// Counters of lookups that reach upstream, in the rate-limit counter table under their own keys (`lookup:<account
// id>` per account, `lookup-unpaid:<account id>` for a paying caller's failed lookups, `lookup-egress` for the cluster), so the existing clean-up drops old windows. One statement each:
// concurrent lookups on any instance cannot both see the last place.
import type { Sql } from '../../../db/client.ts';
import type { LookupCounters } from '../../domain/admission/lookup-admission.ts';

export function createLookupCounters(sql: Sql): LookupCounters {
  const count = async (key: string, windowStart: Date) => {
    const [row] = await sql<{ count: number }[]>`
      insert into rate_counters (key_id, window_start, count)
      values (${key}, ${windowStart.toISOString()}::timestamptz, 1)
      on conflict (key_id, window_start) do update set count = rate_counters.count + 1
      returning count`;
    return row!.count;
  };
  const read = async (key: string, windowStart: Date) => {
    const [row] = await sql<{ count: number }[]>`
      select count from rate_counters where key_id = ${key} and window_start = ${windowStart.toISOString()}::timestamptz`;
    return row?.count ?? 0;
  };
  return {
    unpaid: (accountId, windowStart, add) => (add ? count : read)(`lookup-unpaid:${accountId}`, windowStart),
    account: (accountId, windowStart) => count(`lookup:${accountId}`, windowStart),
    cluster: (windowStart) => count('lookup-egress', windowStart),
  };
}
