// Balances and the credit ledger. Every change to a balance is one statement that also writes its ledger row, so
// concurrent requests can neither overdraw an account nor lose a charge or a refund.
import type { PendingQuery, Row } from 'postgres';
import type { Sql } from '../../../db/client.ts';
import type { CreditLedger, HistoryEntry, LedgerEntry } from '../../domain/credits/credit-ledger.ts';
import { utcDay } from '../../domain/credits/credits.ts';
import { createCreditHolds } from './credit-holds.ts';
import { freeNow } from './free-now.ts';

export function createCreditLedger(sql: Sql): CreditLedger {
  return {
    ...balanceReads(sql),
    ...creditMoves(sql),
    ...ledgerHistory(sql),
    ...historyPages(sql),
    ...createCreditHolds(sql),
  };
}

function balanceReads(sql: Sql): Pick<CreditLedger, 'balance' | 'chargedFor' | 'isCharged'> {
  return {
    async balance(accountId, dailyAllowance, now) {
      const [row] = await sql<{ free_now: number; purchased_balance: number; held_credits: number }[]>`
        select ${freeNow(sql, now, dailyAllowance)} as free_now, purchased_balance, held_credits
        from accounts where id = ${accountId}`;
      return row ? { freeNow: row.free_now, purchased: row.purchased_balance, held: row.held_credits } : null;
    },

    /**
     * Takes `amount` credits in one statement: free allowance first, then purchased credits. The row lock and the
     * condition in the same statement make it exact under concurrency; the balance can never go below zero.
     * Null when it cannot be afforded.
     */

    async chargedFor(accountId, requestId) {
      const [row] = await sql<{ net: number }[]>`
        select coalesce(-sum(delta), 0)::int as net from credit_ledger
        where account_id = ${accountId} and request_id = ${requestId} and kind in ('charge', 'refund')`;
      return row?.net ?? 0;
    },

    async isCharged({ accountId, requestId, videoId, operation }) {
      const [charged] = await sql`
        select 1 from credit_ledger where account_id = ${accountId} and request_id = ${requestId}
          and video_id = ${videoId} and operation = ${operation} and kind = 'charge' limit 1`;
      return !!charged;
    },
  };
}

function creditMoves(sql: Sql): Pick<CreditLedger, 'charge' | 'refund' | 'grant'> {
  return {
    async charge(req, dailyAllowance, now) {
      const today = utcDay(now);
      const rows = await sql<{ ledger_id: number }[]>`
        with cur as (
          select id, purchased_balance, held_credits, ${freeNow(sql, now, dailyAllowance)} as free_now
          from accounts where id = ${req.accountId} for update
        ), upd as (
          update accounts a set
            free_day = ${today}::date,
            free_remaining = cur.free_now - least(cur.free_now, ${req.amount}::int),
            purchased_balance = cur.purchased_balance - (${req.amount}::int - least(cur.free_now, ${req.amount}::int))
          from cur
          where a.id = cur.id and cur.free_now + cur.purchased_balance - cur.held_credits >= ${req.amount}::int
          returning a.id, least(cur.free_now, ${req.amount}::int) as free_used
        )
        insert into credit_ledger (account_id, kind, delta, free_delta, purchased_delta, operation, video_id, request_id, created_at)
        select upd.id, 'charge', -${req.amount}::int, -upd.free_used, -(${req.amount}::int - upd.free_used),
               ${req.operation}, ${req.videoId ?? null}, ${req.requestId}, ${now.toISOString()}::timestamptz
        from upd
        returning id as ledger_id`;
      return rows[0] ? Number(rows[0].ledger_id) : null;
    },

    /**
     * Reverses a charge exactly once (a unique index on refund_of makes a second refund a no-op).
     * Free credits return only while their day lasts: yesterday's allowance is gone either way.
     */

    async refund(chargeId, now) {
      await refundCharges(sql, sql`id = ${chargeId}`, now);
    },

    async grant(accountId, amount, reason) {
      return (await sql.begin(async (tx) => {
        const rows =
          await tx`update accounts set purchased_balance = purchased_balance + ${amount} where id = ${accountId} returning id`;
        if (!rows[0]) return false;
        await tx`insert into credit_ledger (account_id, kind, delta, free_delta, purchased_delta, operation)
                 values (${accountId}, 'grant', ${amount}, 0, ${amount}, ${reason})`;
        return true;
      })) as boolean;
    },
  };
}

function ledgerHistory(sql: Sql): Pick<CreditLedger, 'recent' | 'dailySpend'> {
  return {
    async recent(accountId, limit) {
      const rows = await sql<
        {
          id: string;
          created_at: Date;
          kind: LedgerEntry['kind'];
          operation: string;
          video_id: string | null;
          delta: number;
        }[]
      >`
        select id, created_at, kind, operation, video_id, delta from credit_ledger
        where account_id = ${accountId} order by created_at desc, id desc limit ${limit}`;
      return rows.map((r) => ({
        id: Number(r.id),
        at: r.created_at,
        kind: r.kind,
        operation: r.operation,
        videoId: r.video_id,
        delta: r.delta,
      }));
    },

    async dailySpend(accountId, days) {
      return sql<{ day: string; spent: number }[]>`
        with days as (
          select (generate_series((now() at time zone 'UTC')::date - ${days - 1}::int, (now() at time zone 'UTC')::date, interval '1 day'))::date as day
        )
        select to_char(d.day, 'YYYY-MM-DD') as day, coalesce(-sum(l.delta), 0)::int as spent
        from days d left join credit_ledger l
          on l.account_id = ${accountId} and l.kind in ('charge', 'refund') and (l.created_at at time zone 'UTC')::date = d.day
        group by d.day order by d.day`.then((rows) => rows.map((d) => ({ day: d.day, spent: d.spent })));
    },
  };
}

interface HistoryRow {
  id: string;
  created_at: Date;
  position_at: string;
  kind: LedgerEntry['kind'];
  operation: string;
  video_id: string | null;
  request_id: string | null;
  delta: number;
}

function historyPages(sql: Sql): Pick<CreditLedger, 'history'> {
  return {
    // One statement; the account is always the caller's, whatever the filters or the position say. The position is
    // bound as text: postgres.js would drop its microseconds if bound straight as a timestamptz.
    async history(accountId, { limit, after, requestId, videoId }) {
      const rows = await sql<HistoryRow[]>`
        select id, created_at, kind, operation, video_id, request_id, delta,
               to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as position_at
        from credit_ledger
        where account_id = ${accountId}
          ${requestId === undefined ? sql`` : sql`and request_id = ${requestId}`}
          ${videoId === undefined ? sql`` : sql`and video_id = ${videoId}`}
          ${after ? sql`and (created_at, id) < (${after.at}::text::timestamptz, ${after.id}::bigint)` : sql``}
        order by created_at desc, id desc limit ${limit}`;
      return rows.map(
        (r): HistoryEntry => ({
          id: Number(r.id),
          at: r.created_at,
          kind: r.kind,
          operation: r.operation,
          videoId: r.video_id,
          requestId: r.request_id,
          delta: r.delta,
          position: { at: r.position_at, id: Number(r.id) },
        }),
      );
    },
  };
}

/**
 * Reverses every charge matching `which`, each exactly once (a refund row names the charge it reverses, and that
 * column is unique), in one statement; free credits return only while their day lasts. The credits given back.
 */
async function refundCharges(sql: Sql, which: PendingQuery<Row[]>, now: Date): Promise<number> {
  const today = utcDay(now);
  const [row] = await sql<{ refunded: number | null }[]>`
    with ch as (
      select id, account_id, free_delta, purchased_delta, operation, video_id, request_id,
             (created_at at time zone 'UTC')::date = ${today}::date as same_day
      from credit_ledger where ${which} and kind = 'charge'
    ), led as (
      insert into credit_ledger (account_id, kind, delta, free_delta, purchased_delta, operation, video_id, request_id, refund_of, created_at)
      select account_id, 'refund',
             (case when same_day then -free_delta else 0 end) - purchased_delta,
             case when same_day then -free_delta else 0 end, -purchased_delta,
             operation, video_id, request_id, id, ${now.toISOString()}::timestamptz
      from ch
      on conflict (refund_of) do nothing
      returning account_id, delta, free_delta, purchased_delta
    ), total as (
      select account_id, sum(delta) as delta, sum(free_delta) as free_delta, sum(purchased_delta) as purchased_delta from led group by account_id
    ), upd as (
      update accounts a set
        purchased_balance = a.purchased_balance + total.purchased_delta,
        free_remaining = case when a.free_day = ${today}::date then a.free_remaining + total.free_delta else a.free_remaining end
      from total where a.id = total.account_id
      returning a.id
    )
    select (select sum(delta) from total)::int as refunded`;
  return row?.refunded ?? 0;
}
