import type { TransactionSql } from 'postgres';
import type { Sql } from '../../../db/client.ts';
import type { DeliveryRow, NewDelivery, WebhookStore } from '../../domain/webhooks/ports.ts';
import type { WebhookDelivery } from '../../domain/webhooks/schemas.ts';
import { newMessageId } from '../../domain/webhooks/deliver-webhook.ts';
import { newWebhookSecret } from '../webhooks/signing.ts';

interface Row {
  id: string;
  account_id: string;
  job_id: string;
  url: string;
  event: DeliveryRow['event'];
  body: string;
  status: DeliveryRow['status'];
  attempts: number;
  next_attempt_at: Date | null;
  created_at: Date;
  delivered_at: Date | null;
}

/** A pending delivery, due now; `sql` may be a transaction, so an event and its delivery are stored together. */
export async function insertDelivery(sql: Sql | TransactionSql, d: NewDelivery): Promise<string> {
  const id = newMessageId();
  await sql`
    insert into webhook_deliveries (id, account_id, job_id, url, event, body, status, next_attempt_at)
    values (${id}, ${d.accountId}, ${d.jobId}, ${d.url}, ${d.event}, ${d.body}, 'pending', now())`;
  return id;
}

export function createWebhookRepository(sql: Sql): WebhookStore {
  return { ...newDeliveries(sql), ...deliveryAttempts(sql), ...deliveryHistory(sql), ...signingSecrets(sql) };
}

function newDeliveries(
  sql: Sql,
): Pick<WebhookStore, 'create' | 'createResend' | 'register' | 'waitingForEndedJobs' | 'arm'> {
  return {
    create: (d) => insertDelivery(sql, d),

    async createResend(from, limits) {
      const id = newMessageId();
      return sql.begin(async (tx) => {
        // One resend at a time per account, so two concurrent ones cannot both pass the count.
        await tx`select pg_advisory_xact_lock(hashtext('webhook-resend'), hashtext(${from.accountId}))`;
        const [n] = await tx<{ account: number; event: number }[]>`
          select count(*)::int as account, (count(*) filter (where job_id = ${from.jobId}))::int as event
          from webhook_deliveries
          where account_id = ${from.accountId} and resent_from is not null and created_at > ${limits.since}`;
        if (n!.account >= limits.perAccount || n!.event >= limits.perEvent) return null;
        await tx`
          insert into webhook_deliveries (id, account_id, job_id, url, event, body, status, next_attempt_at, resent_from)
          values (${id}, ${from.accountId}, ${from.jobId}, ${from.url}, ${from.event}, ${from.body}, 'pending', now(), ${from.id})`;
        return id;
      });
    },

    async register(d) {
      const id = newMessageId();
      await sql`
        insert into webhook_deliveries (id, account_id, job_id, url, event, body, status)
        values (${id}, ${d.accountId}, ${d.jobId}, ${d.url}, 'job.completed', '', 'waiting')`;
      return id;
    },

    async waitingForEndedJobs(jobKey) {
      const rows = await sql<{ id: string; account_id: string; job_id: string }[]>`
        select d.id, d.account_id, d.job_id from webhook_deliveries d join tasks t on t.id = d.job_id and t.account_id = d.account_id
        where d.status = 'waiting' and t.status in ('succeeded', 'failed') ${jobKey ? sql`and t.job_key = ${jobKey}` : sql``}
        limit 100`;
      return rows.map((r) => ({ id: r.id, accountId: r.account_id, jobId: r.job_id }));
    },

    async arm(id, event, body) {
      const rows = await sql`
        update webhook_deliveries set status = 'pending', event = ${event}, body = ${body}, created_at = now(), next_attempt_at = now()
        where id = ${id} and status = 'waiting' returning id`;
      return rows.length === 1;
    },
  };
}

function deliveryAttempts(sql: Sql): Pick<WebhookStore, 'stalledPending' | 'get' | 'recordAttempt'> {
  return {
    async stalledPending(queue, graceSeconds) {
      return sql<{ id: string; attempts: number }[]>`
        select d.id, d.attempts from webhook_deliveries d
        where d.status = 'pending'
          and d.next_attempt_at between now() - interval '1 day' and now() - make_interval(secs => ${graceSeconds})
          and not exists (
            select 1 from pgboss.job j
            where j.name = ${queue} and j.state in ('created', 'retry', 'active') and j.singleton_key like d.id || ':%')
        order by d.next_attempt_at limit 100`;
    },

    async get(id) {
      const [r] = await sql<Row[]>`select * from webhook_deliveries where id = ${id}`;
      return r
        ? {
            id: r.id,
            accountId: r.account_id,
            jobId: r.job_id,
            url: r.url,
            event: r.event,
            body: r.body,
            status: r.status,
            attempts: r.attempts,
            createdAt: r.created_at,
          }
        : null;
    },

    async recordAttempt(id, a, next) {
      return (await sql.begin(async (tx) => {
        const inserted = await tx`
          insert into webhook_attempts (delivery_id, attempt, status_code, error, duration_ms)
          values (${id}, ${a.attempt}, ${a.statusCode}, ${a.error}, ${a.durationMs})
          on conflict do nothing returning attempt`;
        if (inserted.length === 0) return false; // a duplicate run of the same attempt
        await tx`
          update webhook_deliveries set attempts = ${a.attempt}, status = ${next.status}, next_attempt_at = ${next.nextAttemptAt},
            delivered_at = case when ${next.status} = 'delivered' then now() else delivered_at end
          where id = ${id}`;
        return true;
      })) as boolean;
    },
  };
}

function deliveryHistory(sql: Sql): Pick<WebhookStore, 'list'> {
  return {
    async list(f) {
      const rows = await sql<Row[]>`
        select * from webhook_deliveries
        where account_id = ${f.accountId} ${f.jobId ? sql`and job_id = ${f.jobId}` : sql``}
        order by created_at desc, id desc limit ${f.limit}`;
      if (rows.length === 0) return [];
      const attempts = await sql<
        {
          delivery_id: string;
          attempt: number;
          at: Date;
          status_code: number | null;
          error: string | null;
          duration_ms: number;
        }[]
      >`
        select * from webhook_attempts where delivery_id in ${sql(rows.map((r) => r.id))} order by attempt`;
      return rows.map(
        (r): WebhookDelivery => ({
          id: r.id,
          jobId: r.job_id,
          event: r.event,
          url: r.url,
          status: r.status,
          attempts: attempts
            .filter((a) => a.delivery_id === r.id)
            .map((a) => ({
              attempt: a.attempt,
              at: a.at.toISOString(),
              statusCode: a.status_code,
              error: a.error,
              durationMs: a.duration_ms,
            })),
          nextAttemptAt: r.status === 'pending' && r.next_attempt_at ? r.next_attempt_at.toISOString() : null,
          createdAt: r.created_at.toISOString(),
          deliveredAt: r.delivered_at?.toISOString() ?? null,
        }),
      );
    },
  };
}

function signingSecrets(sql: Sql): Pick<WebhookStore, 'secretFor' | 'rotateSecret'> {
  return {
    async secretFor(accountId) {
      const [r] = await sql<{ webhook_secret: string }[]>`
        update accounts set webhook_secret = coalesce(webhook_secret, ${newWebhookSecret()}) where id = ${accountId} returning webhook_secret`;
      return r!.webhook_secret;
    },

    async rotateSecret(accountId) {
      const [r] = await sql<{ webhook_secret: string }[]>`
        update accounts set webhook_secret = ${newWebhookSecret()} where id = ${accountId} returning webhook_secret`;
      return r!.webhook_secret;
    },
  };
}
