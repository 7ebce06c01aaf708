import { z } from 'zod';
import type { Sql } from '../../../db/client.ts';
import { Credits, getCredits } from '../credits/credits.ts';

export const LedgerRow = z.object({
  id: z.number().int(),
  at: z.string().describe('ISO 8601 date-time'),
  kind: z.enum(['charge', 'refund', 'grant']),
  operation: z.string(),
  videoId: z.string().nullable(),
  credits: z.number().int().describe('Change to the balance: negative for a charge'),
});
export type LedgerRow = z.infer<typeof LedgerRow>;

export const DailyUsage = z.object({
  day: z.string().describe('UTC date, YYYY-MM-DD'),
  spent: z.number().int().describe('Credits charged that day, net of refunds'),
});

export const UsageSummary = z.object({
  credits: Credits,
  recent: z.array(LedgerRow),
  daily: z.array(DailyUsage).describe('The last 30 UTC days, oldest first, today last'),
});
export type UsageSummary = z.infer<typeof UsageSummary>;

const DAYS = 30;

export async function usageSummary(sql: Sql, accountId: string, dailyAllowance: number, recentLimit = 25): Promise<UsageSummary> {
  const [credits, recent, daily] = await Promise.all([
    getCredits(sql, accountId, dailyAllowance),
    sql<{ id: string; created_at: Date; kind: LedgerRow['kind']; operation: string; video_id: string | null; delta: number }[]>`
      select id, created_at, kind, operation, video_id, delta from credit_ledger
      where account_id = ${accountId} order by created_at desc, id desc limit ${recentLimit}`,
    sql<{ day: string; spent: number }[]>`
      with days as (
        select (generate_series((now() at time zone 'UTC')::date - ${DAYS - 1}::int, (now() at time zone 'UTC')::date, interval '1 day'))::date as day
      )
      select to_char(d.day, 'YYYY-MM-DD') as day, coalesce(-sum(l.delta), 0)::int as spent
      from days d left join credit_ledger l
        on l.account_id = ${accountId} and l.kind in ('charge', 'refund') and (l.created_at at time zone 'UTC')::date = d.day
      group by d.day order by d.day`,
  ]);
  return {
    credits,
    recent: recent.map((r) => ({
      id: Number(r.id),
      at: r.created_at.toISOString(),
      kind: r.kind,
      operation: r.operation,
      videoId: r.video_id,
      credits: r.delta,
    })),
    daily: daily.map((d) => ({ day: d.day, spent: d.spent })),
  };
}
