import { z } from 'zod';
import type { Sql } from '../../../db/client.ts';
import { ServiceError } from '../errors.ts';

export const Credits = z.object({
  balance: z.number().int().describe('Credits spendable now: what is left of today’s free allowance plus the purchased balance'),
  dailyAllowance: z.number().int().describe('Free credits granted every day (UTC)'),
  freeRemaining: z.number().int().describe('What is left of today’s free allowance; spent before purchased credits'),
  purchasedBalance: z.number().int().describe('Purchased or granted credits; they do not expire'),
  resetsAt: z.string().describe('ISO 8601 time when the free allowance next resets (00:00 UTC)'),
});
export type Credits = z.infer<typeof Credits>;

export const utcDay = (now: Date) => now.toISOString().slice(0, 10);
const nextUtcMidnight = (now: Date) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)).toISOString();

export async function getCredits(sql: Sql, accountId: string, dailyAllowance: number, now = new Date()): Promise<Credits> {
  const [row] = await sql<{ free_now: number; purchased_balance: number }[]>`
    select case when free_day = ${utcDay(now)}::date then free_remaining else ${dailyAllowance} end as free_now,
           purchased_balance
    from accounts where id = ${accountId}`;
  if (!row) throw new ServiceError('INVALID_API_KEY', 'The account behind this key no longer exists');
  return {
    balance: row.free_now + row.purchased_balance,
    dailyAllowance,
    freeRemaining: row.free_now,
    purchasedBalance: row.purchased_balance,
    resetsAt: nextUtcMidnight(now),
  };
}

export interface ChargeRequest {
  accountId: string;
  amount: number;
  operation: string;
  videoId?: string | null;
  requestId: string;
}

/**
 * Takes `amount` credits in one statement: free allowance first, then purchased credits.
 * The row lock and the condition in the same statement make it exact under concurrency;
 * the balance can never go below zero. Throws INSUFFICIENT_CREDITS when it cannot be afforded.
 */
export async function chargeCredits(sql: Sql, req: ChargeRequest, dailyAllowance: number, now = new Date()): Promise<number> {
  if (req.amount <= 0) return 0;
  const today = utcDay(now);
  const rows = await sql<{ ledger_id: number }[]>`
    with cur as (
      select id, purchased_balance,
             case when free_day = ${today}::date then free_remaining else ${dailyAllowance}::int end as free_now
      from accounts where id = ${req.accountId} for update
    ), upd as (
      update accounts a set
        free_day = ${today}::date,
        free_remaining = cur.free_now - least(cur.free_now, ${req.amount}::int),
        purchased_balance = cur.purchased_balance - (${req.amount}::int - least(cur.free_now, ${req.amount}::int))
      from cur
      where a.id = cur.id and cur.free_now + cur.purchased_balance >= ${req.amount}::int
      returning a.id, least(cur.free_now, ${req.amount}::int) as free_used
    )
    insert into credit_ledger (account_id, kind, delta, free_delta, purchased_delta, operation, video_id, request_id, created_at)
    select upd.id, 'charge', -${req.amount}::int, -upd.free_used, -(${req.amount}::int - upd.free_used),
           ${req.operation}, ${req.videoId ?? null}, ${req.requestId}, ${now.toISOString()}::timestamptz
    from upd
    returning id as ledger_id`;
  if (!rows[0]) {
    const credits = await getCredits(sql, req.accountId, dailyAllowance, now);
    throw new ServiceError(
      'INSUFFICIENT_CREDITS',
      `This operation costs ${req.amount} credit${req.amount === 1 ? '' : 's'}; the balance is ${credits.balance}. ` +
        `The free allowance resets at ${credits.resetsAt}.`,
    );
  }
  return Number(rows[0].ledger_id);
}

/**
 * Reverses a charge exactly once (a unique index on refund_of makes a second refund a no-op).
 * Free credits return only while their day lasts: yesterday's allowance is gone either way.
 */
export async function refundCharge(sql: Sql, chargeId: number, now = new Date()): Promise<void> {
  const today = utcDay(now);
  await sql`
    with ch as (
      select id, account_id, free_delta, purchased_delta, operation, video_id, request_id,
             (created_at at time zone 'UTC')::date = ${today}::date as same_day
      from credit_ledger where id = ${chargeId} and kind = 'charge'
    ), led as (
      insert into credit_ledger (account_id, kind, delta, free_delta, purchased_delta, operation, video_id, request_id, refund_of, created_at)
      select account_id, 'refund',
             (case when same_day then -free_delta else 0 end) - purchased_delta,
             case when same_day then -free_delta else 0 end, -purchased_delta,
             operation, video_id, request_id, id, ${now.toISOString()}::timestamptz
      from ch
      on conflict (refund_of) do nothing
      returning account_id, free_delta, purchased_delta
    )
    update accounts a set
      purchased_balance = a.purchased_balance + led.purchased_delta,
      free_remaining = case when a.free_day = ${today}::date then a.free_remaining + led.free_delta else a.free_remaining end
    from led where a.id = led.account_id`;
}

export async function grantCredits(sql: Sql, accountId: string, amount: number, reason = 'grant'): Promise<void> {
  if (!Number.isInteger(amount) || amount <= 0) throw new ServiceError('INVALID_REQUEST', 'amount must be a positive integer');
  await sql.begin(async (tx) => {
    const rows = await tx`update accounts set purchased_balance = purchased_balance + ${amount} where id = ${accountId} returning id`;
    if (!rows[0]) throw new ServiceError('INVALID_REQUEST', `No account ${accountId}`);
    await tx`insert into credit_ledger (account_id, kind, delta, free_delta, purchased_delta, operation)
             values (${accountId}, 'grant', ${amount}, 0, ${amount}, ${reason})`;
  });
}
