// Per-account counters of free video lookups that reach YouTube, in the rate-limit counter table under their own
// key (`lookup:<account id>`), so the existing clean-up drops old windows.
import type { Sql } from '../../../db/client.ts';
import type { FreeLookupCounter } from '../../domain/video/free-lookups.ts';

export function createFreeLookupCounter(sql: Sql): FreeLookupCounter {
  return {
    async count(accountId, windowStart) {
      const [row] = await sql<{ count: number }[]>`
        insert into rate_counters (key_id, window_start, count)
        values (${`lookup:${accountId}`}, ${windowStart.toISOString()}::timestamptz, 1)
        on conflict (key_id, window_start) do update set count = rate_counters.count + 1
        returning count`;
      return row!.count;
    },
  };
}
