import { z } from 'zod';
import type { Stores } from '../stores.ts';
import { Credits, getCredits } from '../credits/credits.ts';
import { LedgerRow, toLedgerRow } from '../credits/ledger-row.ts';

const DailyUsage = z.object({
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

export async function usageSummary(
  ports: Pick<Stores, 'ledger'>,
  accountId: string,
  dailyAllowance: number,
  recentLimit = 25,
): Promise<UsageSummary> {
  const [credits, recent, daily] = await Promise.all([
    getCredits(ports, accountId, dailyAllowance),
    ports.ledger.recent(accountId, recentLimit),
    ports.ledger.dailySpend(accountId, DAYS),
  ]);
  return {
    credits,
    recent: recent.map(toLedgerRow),
    daily,
  };
}
