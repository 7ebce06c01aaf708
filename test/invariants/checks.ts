// The invariants, checked after every program through SQL and the APIs. Each check appends a readable violation
// instead of throwing, so one run reports every broken invariant at once.
import { utcDay } from '../../src/domain/credits/credits.ts';
import { mediaIdOf } from '../../src/domain/video/video-ref.ts';
import { hole } from './known-holes.ts';
import type { Account, Log } from './program.ts';
import { record } from './program.ts';
import { DAILY_FREE_CREDITS, type InvariantStack } from './stack.ts';
import type { Answer, Surface } from './surfaces.ts';

const SETTLE_MS = 90_000;

/**
 * Waits until every job, batch and webhook delivery of the run has ended (or gives up and says so). An ended batch
 * with a callback and no delivery yet is still open: the run that ended it may have died before queuing its event,
 * which the workers' sweep then queues after its grace (ENDED_WITHOUT_WEBHOOK_SECONDS, 30 s).
 */
export async function settle(stack: InvariantStack, accounts: Account[], log: Log): Promise<void> {
  const sql = stack.s.deps.sql;
  const ids = accounts.map((a) => a.accountId);
  const until = Date.now() + SETTLE_MS;
  for (;;) {
    const [row] = await sql<{ open: number }[]>`
      select (select count(*) from tasks where account_id in ${sql(ids)} and status not in ('succeeded', 'failed'))
           + (select count(*) from batches where account_id in ${sql(ids)} and status = 'running')
           + (select count(*) from webhook_deliveries where account_id in ${sql(ids)} and status in ('waiting', 'pending'))
           + (select count(*) from batches b where account_id in ${sql(ids)} and status <> 'running' and callback_url is not null
                and not exists (select 1 from webhook_deliveries d where d.job_id = b.id))
           + (select count(*) from pgboss.job where state in ('created', 'retry', 'active') and start_after < now() + interval '5 seconds')
           as open`;
    if (Number(row!.open) === 0) return;
    if (Date.now() > until) {
      const open = await sql`
        select 'task' as what, id, status from tasks where account_id in ${sql(ids)} and status not in ('succeeded', 'failed')
        union all select 'batch', id, status from batches where account_id in ${sql(ids)} and status = 'running'
        union all select 'delivery', id, status from webhook_deliveries where account_id in ${sql(ids)} and status in ('waiting', 'pending')
        union all select 'batch event', id, status from batches b where account_id in ${sql(ids)} and status <> 'running'
          and callback_url is not null and not exists (select 1 from webhook_deliveries d where d.job_id = b.id)
        union all select 'queue:' || name, id::text, state::text from pgboss.job where state in ('created', 'retry', 'active')`;
      log.violations.push(`not final ${SETTLE_MS / 1000} s after the program: ${JSON.stringify(open)}`);
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function checkInvariants(stack: InvariantStack, accounts: Account[], log: Log): Promise<void> {
  const checks = [
    ['balances', checkBalances],
    ['refunds', checkRefunds],
    ['stored results', checkStoredResults],
    ['reported charges', checkReportedCharges],
    ['final states', checkFinalStates],
    ['isolation', checkIsolation],
    ['paid work', checkPaidWork],
  ] as const;
  for (const [name, check] of checks) {
    const t0 = Date.now();
    await check(stack, accounts, log);
    const key = `check ${name}`;
    log.spent[key] = (log.spent[key] ?? 0) + Date.now() - t0;
  }
}

/**
 * A check's read, asked again while it answers 503: after the program nothing is cut, but a database server shared
 * with other clients may be full for a moment (53300, answered 503 SERVICE_BUSY), and a 503 says "retry".
 */
async function readSettled(stack: InvariantStack, read: () => Promise<Answer>): Promise<Answer> {
  let answer = await read();
  // MCP answers a tool error (any code) as 400 here: its SERVICE_BUSY is the same 503.
  const busy = (a: Answer) => a.status === 503 || a.code === 'SERVICE_BUSY';
  for (let i = 1; i <= 5 && busy(answer); i++) {
    await stack.s.deps.sql`select 1`.catch(() => {});
    await new Promise((r) => setTimeout(r, 200 * i));
    answer = await read();
  }
  return answer;
}

/** Every balance is the sum of its ledger entries (the free half: today's allowance plus today's free deltas). */
async function checkBalances(stack: InvariantStack, accounts: Account[], log: Log) {
  const sql = stack.s.deps.sql;
  const today = utcDay(new Date());
  await Promise.all(
    accounts.map(async (a) => {
      const [row] = await sql<
        {
          purchased: number;
          free: number;
          free_day: string | null;
          purchased_sum: number;
          free_today: number;
          free_other: number;
        }[]
      >`
      select purchased_balance as purchased, free_remaining as free, to_char(free_day, 'YYYY-MM-DD') as free_day,
             (select coalesce(sum(purchased_delta), 0)::int from credit_ledger where account_id = a.id) as purchased_sum,
             (select coalesce(sum(free_delta), 0)::int from credit_ledger where account_id = a.id
                and (created_at at time zone 'UTC')::date = a.free_day) as free_today,
             (select count(*)::int from credit_ledger where account_id = a.id and free_delta <> 0
                and (created_at at time zone 'UTC')::date is distinct from a.free_day) as free_other
      from accounts a where id = ${a.accountId}`;
      const r = row!;
      if (r.purchased !== r.purchased_sum)
        log.violations.push(
          `account ${a.index}: purchased balance ${r.purchased} but its ledger sums to ${r.purchased_sum}`,
        );
      if (r.free_day === today && r.free !== DAILY_FREE_CREDITS + r.free_today)
        log.violations.push(
          `account ${a.index}: free allowance left ${r.free} but ${DAILY_FREE_CREDITS} + today's free entries = ${DAILY_FREE_CREDITS + r.free_today}`,
        );
      if (r.free_day && r.free_day !== today) return; // a run across midnight: yesterday's free half is gone by rule
      if (r.free < 0 || r.purchased < 0)
        log.violations.push(`account ${a.index}: balance below zero (${r.free}, ${r.purchased})`);
      // The API's balance is the ledger's too, on every surface.
      for (const surface of ['rest', 'trpc', 'mcp'] as Surface[]) {
        const answer = await readSettled(stack, () => a.caller.call(surface, 'credits', {}));
        record(log, a.index, 'check:credits', answer);
        const total = r.purchased + (r.free_day === today ? r.free : DAILY_FREE_CREDITS);
        const said = answer.data?.balance ?? answer.data?.total;
        if (typeof said === 'number' && said !== total)
          log.violations.push(`account ${a.index}: GET /credits on ${surface} says ${said}, the ledger ${total}`);
      }
    }),
  );
}

/** No refund exceeds its charge, each names a charge of the same account, and a charge is refunded at most once. */
async function checkRefunds(stack: InvariantStack, accounts: Account[], log: Log) {
  const sql = stack.s.deps.sql;
  const bad = await sql`
    select r.id, r.account_id, r.delta, r.purchased_delta, c.id as charge_id, c.kind as charge_kind, c.account_id as charge_account,
           c.delta as charge_delta, c.purchased_delta as charge_purchased
    from credit_ledger r left join credit_ledger c on c.id = r.refund_of
    where r.kind = 'refund' and r.account_id in ${sql(accounts.map((a) => a.accountId))}
      and (c.id is null or c.kind <> 'charge' or c.account_id <> r.account_id or r.delta < 0 or r.delta > -c.delta
           or r.purchased_delta > -c.purchased_delta)`;
  for (const b of bad) log.violations.push(`refund exceeds or misses its charge: ${JSON.stringify(b)}`);
}

/** Every stored result was paid exactly once by an account that asked for it, or is free by a written rule. */
async function checkStoredResults(stack: InvariantStack, _accounts: Account[], log: Log) {
  const sql = stack.s.deps.sql;
  // Stored rows per (operation, video): how many credits-worth of results a video holds.
  const stored = await sql<{ operation: string; video_id: string; n: number }[]>`
    select 'subtitles' as operation, video_id, count(*)::int as n from transcripts where origin in ('manual', 'asr') group by video_id
    union all select 'speech', video_id, count(*)::int from transcripts where origin = 'speech' group by video_id
    union all select 'translation', video_id, count(*)::int from translations group by video_id
    union all select 'summary', video_id, count(*)::int from articles group by video_id
    union all select 'frame', video_id, count(*)::int from frames group by video_id`;
  // Charges not refunded, per (operation, video): frames count credits (one per frame), the rest count charges.
  const paid = await sql<{ operation: string; video_id: string; n: number; payers: string[] }[]>`
    select c.operation, c.video_id,
           (case when c.operation = 'frame' then -sum(c.delta) else count(*) end)::int as n,
           array_agg(distinct c.account_id) as payers
    from credit_ledger c
    where c.kind = 'charge' and c.video_id is not null
      and not exists (select 1 from credit_ledger r where r.refund_of = c.id)
    group by c.operation, c.video_id`;
  const key = (o: string, v: string) => `${o} ${v}`;
  const paidBy = new Map(paid.map((p) => [key(p.operation, p.video_id), p]));
  const storedBy = new Map(stored.map((s) => [key(s.operation, s.video_id), s]));
  for (const s of stored) {
    const p = paidBy.get(key(s.operation, s.video_id));
    const n = p?.n ?? 0;
    if (n < s.n)
      log.violations.push(
        `${s.n} stored ${s.operation} result(s) of ${s.video_id}, ${n} paid (no written rule makes them free)`,
      );
    if (n > s.n) log.violations.push(`${s.operation} of ${s.video_id} paid ${n} times for ${s.n} stored result(s)`);
  }
  for (const p of paid) {
    if (!storedBy.has(key(p.operation, p.video_id)))
      log.violations.push(`${p.operation} of ${p.video_id} charged ${p.n} and not refunded, but nothing is stored`);
    for (const payer of p.payers) {
      const asked = log.asked.get(payer);
      if (!asked?.has(p.video_id))
        log.violations.push(`account ${payer} paid ${p.operation} of ${p.video_id} it never asked for`);
    }
  }
}

/** What a synchronous answer said it charged is what the ledger took for that request. */
async function checkReportedCharges(stack: InvariantStack, _accounts: Account[], log: Log) {
  const sql = stack.s.deps.sql;
  const charged = log.charged.filter((c) => c.answer.requestId);
  if (!charged.length) return;
  // One read for every request of the program (a request the ledger has no entry for took 0).
  const rows = await sql<{ request_id: string; net: number }[]>`
    select request_id, coalesce(-sum(delta), 0)::int as net from credit_ledger
    where request_id in ${sql(charged.map((c) => c.answer.requestId!))} and kind <> 'grant' group by request_id`;
  const net = new Map(rows.map((r) => [r.request_id, r.net]));
  for (const c of charged) {
    const took = net.get(c.answer.requestId!) ?? 0;
    if (took !== c.credits)
      log.violations.push(
        `${c.op.kind} on ${c.answer.surface} answered creditsCharged ${c.credits}, the ledger took ${took} (${c.answer.requestId}, ${JSON.stringify(c.op)})`,
      );
  }
}

/** Every batch, item and job reached a final state, and every callback was delivered. */
async function checkFinalStates(stack: InvariantStack, accounts: Account[], log: Log) {
  const sql = stack.s.deps.sql;
  const ids = accounts.map((a) => a.accountId);
  const open = await sql`
    select 'batch item' as what, batch_id as id, status from batch_items
    where batch_id in (select id from batches where account_id in ${sql(ids)}) and status in ('queued', 'running')
    union all select 'batch', id, status from batches where account_id in ${sql(ids)} and status = 'running'
    union all select 'job', id, status from tasks where account_id in ${sql(ids)} and status in ('queued', 'running')`;
  for (const o of open) log.violations.push(`${o.what} ${o.id} left ${o.status}`);
  const callbacks = [...log.batches.filter((b) => b.callback), ...log.jobs.filter((j) => j.callback)];
  // One read of the deliveries of every job and batch with a callback (not one per job).
  const callbackIds = [...new Set(callbacks.map((c) => c.id))];
  const deliveries = callbackIds.length
    ? await sql<{ job_id: string; statuses: string[] }[]>`
        select job_id, array_agg(status::text) as statuses from webhook_deliveries
        where job_id in ${sql(callbackIds)} group by job_id`
    : [];
  const statusesOf = new Map(deliveries.map((d) => [d.job_id, d.statuses]));
  // Every body the receiver got, once: an id is matched in it as in each body (ids cannot span the separator).
  const received = stack.receiver.received.map((r) => r.body).join('\n');
  for (const c of callbacks) {
    const statuses = statusesOf.get(c.id) ?? [];
    if (!statuses.includes('delivered'))
      log.violations.push(
        `callback of ${c.id} not delivered (${JSON.stringify(statuses.map((status) => ({ status })))})`,
      );
    if (!received.includes(c.id)) log.violations.push(`the receiver never got the event of ${c.id}`);
  }
  if (!log.batches.length) return;
  const cancelled = await sql<{ id: string }[]>`
    select id from batches where id in ${sql(log.batches.map((b) => b.id))} and status = 'cancelled'`;
  for (const { id } of cancelled)
    if (!log.cancelledByOwner.has(id)) log.violations.push(`batch ${id} cancelled though its owner never asked`);
}

/**
 * No account reads anything private to another: jobs, batches, media info, webhook deliveries (and their resend),
 * and no answer to one account carries another's secret (media token, API key, webhook signing secret).
 */
async function checkIsolation(stack: InvariantStack, accounts: Account[], log: Log) {
  // Readers and surfaces in parallel (each read is independent); the same reads as one after the other.
  await Promise.all(accounts.map((reader) => isolationOf(stack, accounts, log, reader)));
  // Secrets: no answer an account received carries another account's.
  for (const { who, op, answer } of log.answers)
    for (const other of accounts)
      if (other.index !== who)
        for (const secret of other.secrets)
          if (answer.text.includes(secret))
            log.violations.push(`account ${who} got a secret of account ${other.index} in ${op} on ${answer.surface}`);
}

async function isolationOf(stack: InvariantStack, accounts: Account[], log: Log, reader: Account) {
  {
    await Promise.all(
      (['rest', 'trpc', 'mcp'] as Surface[]).map(async (surface) => {
        for (const [pool, route] of [
          [log.batches, 'getBatch'],
          [log.jobs, 'getJob'],
        ] as const) {
          for (const target of pool) {
            const answer = await readSettled(stack, () => reader.caller.call(surface, route, { id: target.id }));
            record(log, reader.index, `check:${route}`, answer);
            const mine = target.owner === reader.index;
            if (mine && answer.status !== 200)
              log.violations.push(
                `account ${reader.index} cannot read its own ${target.id} on ${surface}: ${answer.status} ${answer.code ?? ''} ${answer.text.slice(0, 200)}`,
              );
            if (!mine && answer.status === 200)
              log.violations.push(`account ${reader.index} read ${target.id} of account ${target.owner} on ${surface}`);
          }
        }
        for (const owner of accounts) {
          if (owner === reader || hole(3)) continue;
          const answer = await readSettled(stack, () =>
            reader.caller.call(surface, 'videoInfo', { videoId: mediaIdOf(owner.mediaUrl, owner.accountId) }),
          );
          record(log, reader.index, 'check:videoInfo', answer);
        }
      }),
    );
    // Webhook deliveries: the website lists only the reader's own, and cannot resend another's.
    const settings = await reader.session.query('webhooks.settings', {});
    // Whose job a delivery is about is read from the database, not the program's log: a create whose answer was
    // lost to a database blip still made its job, and that job is its maker's.
    const listed: { id: string; jobId: string }[] = settings.json?.result?.data?.deliveries ?? [];
    const owners = listed.length
      ? await stack.s.deps.sql<{ id: string; account_id: string }[]>`
          select id, account_id from batches where id in ${stack.s.deps.sql(listed.map((d) => d.jobId))}
          union all select id, account_id from tasks where id in ${stack.s.deps.sql(listed.map((d) => d.jobId))}`
      : [];
    const ownerOf = new Map(owners.map((o) => [o.id, o.account_id]));
    for (const d of listed)
      if (ownerOf.get(d.jobId) !== reader.accountId)
        log.violations.push(`account ${reader.index} lists delivery ${d.id} of job ${d.jobId}, not its own`);
    const others = await stack.s.deps.sql<{ id: string }[]>`
      select id from webhook_deliveries where account_id <> ${reader.accountId}
        and account_id in ${stack.s.deps.sql(accounts.map((a) => a.accountId))} limit 5`;
    for (const d of others) {
      const resend = await reader.session.mutate('webhooks.resend', { id: d.id });
      if (resend.status === 200)
        log.violations.push(`account ${reader.index} resent delivery ${d.id} of another account`);
    }
  }
}

/** Holds of a program still held once its work has ended are given this long (the hold sweep's grace and a pass). */
const HOLDS_CLOSE_MS = 45_000;

/**
 * The engine or model was called only for work that was paid or free by rule: every job the model ran for had its
 * requester's credits held before it was enqueued, every call to the speech engine was for a job whose credits
 * were held, every hold ended settled (into a charge of its account) or released, and no credit stays held.
 */
async function checkPaidWork(stack: InvariantStack, accounts: Account[], log: Log) {
  const sql = stack.s.deps.sql;
  const ids = sql(accounts.map((a) => a.accountId));
  const unpaid = await sql<{ task_id: string; kind: string }[]>`
    select distinct u.task_id, t.kind from llm_usage u join tasks t on t.id = u.task_id
    where t.account_id in ${ids} and not exists (select 1 from credit_holds h where h.task_id = u.task_id)`;
  for (const u of unpaid)
    log.violations.push(`the model was called for ${u.kind} job ${u.task_id} with no credits held`);
  const until = Date.now() + HOLDS_CLOSE_MS;
  let open: { id: string; operation: string }[] = [];
  for (;;) {
    open = await sql`select id, operation from credit_holds where account_id in ${ids} and status = 'held'`;
    if (!open.length || Date.now() > until) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  for (const h of open) log.violations.push(`hold ${h.id} (${h.operation}) still held after its work ended`);
  const [row] = await sql<{ settled: number; released: number; broken: number; drift: number }[]>`
    select count(*) filter (where h.status = 'settled')::int as settled,
           count(*) filter (where h.status = 'released')::int as released,
           count(*) filter (where h.status = 'settled' and (l.id is null or l.kind <> 'charge' or l.account_id <> h.account_id))::int as broken,
           (select count(*)::int from accounts a where a.id in ${ids} and a.held_credits <>
              (select coalesce(sum(amount), 0) from credit_holds x where x.account_id = a.id and x.status = 'held')) as drift
    from credit_holds h left join credit_ledger l on l.id = h.ledger_id where h.account_id in ${ids}`;
  if (row!.broken) log.violations.push(`${row!.broken} settled holds without their account's charge`);
  if (row!.drift) log.violations.push(`${row!.drift} accounts whose held credits are not the sum of their holds`);
  log.paidWork.holdsSettled += row!.settled;
  log.paidWork.holdsReleased += row!.released;
  log.paidWork.modelCalls = stack.model.requests.length;
  log.paidWork.engineCalls = stack.whisper.requests.length;
}
