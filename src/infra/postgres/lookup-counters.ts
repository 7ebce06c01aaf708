// Counters of lookups that reach upstream, in the rate-limit counter table under their own keys (`lookup:<account
// id>` per account, `lookup-egress` for the cluster), so the existing clean-up drops old windows. One statement each:
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
  return {
    account: (accountId, windowStart) => count(`lookup:${accountId}`, windowStart),
    cluster: (windowStart) => count('lookup-egress', windowStart),
  };
}
