// Holds: credits reserved before paid work starts. accounts.held_credits is the sum of an account's held holds, kept on
// the account row so that the row lock every balance statement takes also serialises reservations: two concurrent
// requests can never reserve the same credit (a sum over credit_holds read in a statement's snapshot could).
import type { PendingQuery, Row } from 'postgres';
import type { Sql } from '../../../db/client.ts';
import type { CreditHolds, OpenHold, PaidQueue } from '../../domain/credits/credit-ledger.ts';
import { utcDay } from '../../domain/credits/credits.ts';
import { freeNow } from './free-now.ts';

export function createCreditHolds(sql: Sql): CreditHolds {
  return { ...reserving(sql), ...settling(sql), ...holdReads(sql) };
}

function reserving(sql: Sql): Pick<CreditHolds, 'hold' | 'releaseHolds'> {
  return {
    async hold(req, dailyAllowance, now) {
      const rows = await sql<{ id: string }[]>`
        with cur as (
          select id, purchased_balance, held_credits, ${freeNow(sql, now, dailyAllowance)} as free_now
          from accounts where id = ${req.accountId} for update
        ), upd as (
          update accounts a set held_credits = a.held_credits + ${req.amount}::int
          from cur
          where a.id = cur.id and cur.free_now + cur.purchased_balance - cur.held_credits >= ${req.amount}::int
          returning a.id
        )
        insert into credit_holds (account_id, amount, operation, video_id, request_id, job_queue, job_key, task_id, created_at)
        select upd.id, ${req.amount}::int, ${req.operation}, ${req.videoId ?? null}, ${req.requestId},
               ${req.job?.queue ?? null}, ${req.job?.key ?? null}, ${req.jobId ?? null}, ${now.toISOString()}::timestamptz
        from upd
        returning id`;
      return rows[0] ? Number(rows[0].id) : null;
    },

    async releaseHolds({ holdIds = [], jobIds = [] }) {
      if (holdIds.length === 0 && jobIds.length === 0) return 0;
      return releaseWhere(sql, sql`(id = any(${holdIds}::bigint[]) or task_id = any(${jobIds}::text[]))`);
    },
  };
}

/** Releases every held hold matching `which`, once each (the status moves in the same statement), in one statement. */
async function releaseWhere(sql: Sql, which: PendingQuery<Row[]>): Promise<number> {
  const [row] = await sql<{ released: number | null }[]>`
    with rel as (
      update credit_holds set status = 'released', closed_at = now()
      where ${which} and status = 'held'
      returning account_id, amount
    ), total as (
      select account_id, sum(amount)::int as amount from rel group by account_id
    ), upd as (
      update accounts a set held_credits = a.held_credits - total.amount from total where a.id = total.account_id
      returning a.id
    )
    select (select sum(amount) from total)::int as released`;
  return row?.released ?? 0;
}

function settling(sql: Sql): Pick<CreditHolds, 'settleHold'> {
  return {
    /**
     * One statement: the hold locked (a concurrent settle or release of it waits, then finds it closed), the account
     * locked, the charge taken free credits first from what this hold and nothing else reserves, the hold closed and
     * the ledger row written.
     */
    async settleHold(holdId, amount, dailyAllowance, now) {
      const today = utcDay(now);
      const rows = await sql<{ ledger_id: string }[]>`
        with h as (
          select id, account_id, amount, operation, video_id, request_id from credit_holds
          where id = ${holdId} and status = 'held' for update
        ), cur as (
          select id, purchased_balance, held_credits, ${freeNow(sql, now, dailyAllowance)} as free_now
          from accounts where id = (select account_id from h) for update
        ), upd as (
          update accounts a set
            free_day = ${today}::date,
            free_remaining = cur.free_now - least(cur.free_now, ${amount}::int),
            purchased_balance = cur.purchased_balance - (${amount}::int - least(cur.free_now, ${amount}::int)),
            held_credits = cur.held_credits - h.amount
          from cur, h
          where a.id = cur.id and cur.free_now + cur.purchased_balance - (cur.held_credits - h.amount) >= ${amount}::int
          returning a.id, least(cur.free_now, ${amount}::int) as free_used
        ), led as (
          insert into credit_ledger (account_id, kind, delta, free_delta, purchased_delta, operation, video_id, request_id, created_at)
          select upd.id, 'charge', -${amount}::int, -upd.free_used, -(${amount}::int - upd.free_used),
                 h.operation, h.video_id, h.request_id, ${now.toISOString()}::timestamptz
          from upd, h
          returning id
        ), closed as (
          update credit_holds set status = 'settled', closed_at = now(), ledger_id = (select id from led)
          where id = ${holdId} and exists (select 1 from led)
          returning id
        )
        select id as ledger_id from led`;
      return rows[0] ? Number(rows[0].ledger_id) : null;
    },
  };
}

interface OpenHoldRow {
  id: string;
  account_id: string;
  amount: number;
  task_id: string | null;
  job_queue: PaidQueue | null;
  job_key: string | null;
  task_status: string | null;
  age: number;
}

function holdReads(sql: Sql): Pick<CreditHolds, 'jobHolds' | 'isHeld' | 'holdsFor' | 'openHolds'> {
  return {
    async jobHolds(jobIds) {
      if (jobIds.length === 0) return new Map();
      const rows = await sql<{ id: string; task_id: string; amount: number }[]>`
        select id, task_id, amount from credit_holds where task_id = any(${jobIds}::text[]) and status = 'held'`;
      return new Map(rows.map((r) => [r.task_id, { id: Number(r.id), amount: r.amount }]));
    },

    async isHeld(holdId) {
      const [row] = await sql`select 1 from credit_holds where id = ${holdId} and status = 'held'`;
      return !!row;
    },

    async holdsFor(accountId, jobKey) {
      const [row] = await sql`
        select 1 from credit_holds where account_id = ${accountId} and job_key = ${jobKey} and status = 'held' limit 1`;
      return !!row;
    },

    async openHolds(graceSeconds, limit) {
      const rows = await sql<OpenHoldRow[]>`
        select h.id, h.account_id, h.amount, h.task_id, h.job_queue, h.job_key, t.status as task_status,
               extract(epoch from now() - h.created_at)::float8 as age
        from credit_holds h left join tasks t on t.id = h.task_id
        where h.status = 'held' and h.created_at < now() - make_interval(secs => ${graceSeconds})
        order by h.created_at limit ${limit}`;
      return rows.map(
        (r): OpenHold => ({
          id: Number(r.id),
          accountId: r.account_id,
          amount: r.amount,
          jobId: r.task_id,
          job: r.job_queue && r.job_key ? { queue: r.job_queue, key: r.job_key } : null,
          jobStatus: r.task_status,
          ageSeconds: r.age,
        }),
      );
    },
  };
}
