import type { Sql } from '../../../db/client.ts';
import { utcDay } from '../../domain/credits/credits.ts';

/** Today's free allowance left on an accounts row (the whole allowance on a new UTC day), as an SQL expression. */
export const freeNow = (sql: Sql, now: Date, dailyAllowance: number) => {
  const today = utcDay(now);
  return sql`case when free_day = ${today}::date then free_remaining
                  when free_from > ${today}::date then 0 else ${dailyAllowance}::int end`;
};
