import type { Sql } from '../../../db/client.ts';
import type { BatchRow, BatchStore } from '../../domain/batches/ports.ts';
import type { BatchItem, BatchItemResult, BatchOperation, BatchStatus } from '../../domain/batches/schemas.ts';
import { newId } from '../../domain/ids.ts';
import { jsonValue } from './json-value.ts';

interface Row {
  id: string;
  account_id: string;
  status: BatchStatus;
  operation: BatchOperation;
  callback_url: string | null;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

const fromRow = (r: Row): BatchRow => ({
  id: r.id,
  accountId: r.account_id,
  status: r.status,
  operation: r.operation,
  callbackUrl: r.callback_url,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  finishedAt: r.finished_at,
});

/** Results stored before batches ran other operations than transcripts carry no `type`: they are transcripts. */
const resultOf = (
  r: BatchItem['result'] | Omit<Extract<BatchItemResult, { type: 'transcript' }>, 'type'>,
): BatchItem['result'] => (r ? ('type' in r ? r : { type: 'transcript', ...r }) : null);

export function createBatchRepository(sql: Sql): BatchStore {
  return { ...batchRecords(sql), ...itemRuns(sql), ...settling(sql), ...sweeps(sql) };
}

function batchRecords(sql: Sql): Pick<BatchStore, 'create' | 'get'> {
  return {
    async create(b) {
      const id = newId('bat');
      return (await sql.begin(async (tx) => {
        const [row] = await tx<Row[]>`
          insert into batches (id, account_id, status, operation, source, callback_url, request_id, listing_pages)
          values (${id}, ${b.accountId}, 'running', ${tx.json(jsonValue(b.operation))}, ${tx.json(jsonValue(b.source))}, ${b.callbackUrl}, ${b.requestId}, ${b.listingPages ?? 0})
          returning *`;
        const items = b.videoIds.map((videoId, position) => ({
          batch_id: id,
          position,
          video_id: videoId,
          status: 'queued',
          request_id: `${b.requestId}:${position}`,
        }));
        await tx`insert into batch_items ${tx(items)}`;
        return fromRow(row!);
      })) as BatchRow;
    },

    async get(id, accountId) {
      const [row] = await sql<Row[]>`select * from batches where id = ${id} and account_id = ${accountId}`;
      if (!row) return null;
      const items = await sql<
        {
          position: number;
          video_id: string;
          status: BatchItem['status'];
          credits_charged: number;
          result: BatchItem['result'];
          error: BatchItem['error'];
        }[]
      >`
        select position, video_id, status, credits_charged, result, error from batch_items where batch_id = ${id} order by position`;
      return {
        batch: fromRow(row),
        items: items.map((i) => ({
          position: i.position,
          videoId: i.video_id,
          status: i.status,
          creditsCharged: i.credits_charged,
          result: resultOf(i.result),
          error: i.error ?? null,
        })),
      };
    },
  };
}

function itemRuns(sql: Sql): Pick<BatchStore, 'claimItem' | 'requeueItem' | 'finishItem' | 'cancelQueued'> {
  return {
    async claimItem(batchId, position, reclaim = false) {
      const [row] = await sql<
        { video_id: string; request_id: string; account_id: string; operation: BatchOperation }[]
      >`
        update batch_items i set status = 'running', updated_at = now()
        from batches b
        where i.batch_id = ${batchId} and i.position = ${position} and b.id = i.batch_id
          and (i.status = 'queued' or (${reclaim} and i.status = 'running'))
        returning i.video_id, i.request_id, b.account_id, b.operation`;
      return row
        ? {
            batchId,
            position,
            videoId: row.video_id,
            requestId: row.request_id,
            accountId: row.account_id,
            operation: row.operation,
          }
        : null;
    },

    async requeueItem(batchId, position) {
      const rows = await sql`
        update batch_items set status = 'queued', updated_at = now()
        where batch_id = ${batchId} and position = ${position} and status = 'running'
        returning position`;
      return rows.length > 0;
    },

    async finishItem(batchId, position, o) {
      await sql`
        update batch_items set status = ${o.status}, result = ${o.result ? sql.json(o.result) : null},
          error = ${o.error ? sql.json(o.error) : null}, credits_charged = ${o.creditsCharged}, updated_at = now()
        where batch_id = ${batchId} and position = ${position} and status = 'running'`;
      await sql`update batches set updated_at = now() where id = ${batchId}`;
    },

    async cancelQueued(batchId, accountId) {
      // A queued video may have been charged already (an attempt that stored a transcript, then failed for now): it
      // reports what the ledger took, as a failed one does, and its batch counts as having charged a video.
      const rows = await sql`
        update batch_items i set status = 'cancelled', updated_at = now(),
          credits_charged = (
            select coalesce(-sum(l.delta), 0)::int from credit_ledger l
            where l.account_id = b.account_id and l.request_id = i.request_id and l.kind in ('charge', 'refund'))
        from batches b
        where i.batch_id = ${batchId} and b.id = i.batch_id and b.account_id = ${accountId} and i.status = 'queued'
        returning i.position`;
      return rows.length;
    },
  };
}

/** What the sweep looks for: items no job will move, batches that ended or finished without their run. */
function sweeps(sql: Sql): Pick<BatchStore, 'stalledItems' | 'endedWithoutWebhook' | 'doneButRunning'> {
  return {
    async stalledItems(queue, queuedGraceSeconds, runningGraceSeconds) {
      const rows = await sql<
        { batch_id: string; position: number; account_id: string; request_id: string; status: 'queued' | 'running' }[]
      >`
        select i.batch_id, i.position, b.account_id, i.request_id, i.status
        from batch_items i join batches b on b.id = i.batch_id
        where b.status = 'running'
          and ((i.status = 'running' and i.updated_at < now() - make_interval(secs => ${runningGraceSeconds}))
               or (i.status = 'queued' and i.updated_at < now() - make_interval(secs => ${queuedGraceSeconds})))
          and not exists (
            select 1 from pgboss.job j
            where j.name = ${queue} and j.state in ('created', 'retry', 'active')
              and (j.singleton_key = i.batch_id || ':' || i.position
                   or j.singleton_key like i.batch_id || ':' || i.position || ':%'))
        order by i.updated_at limit 100`;
      return rows.map((r) => ({
        batchId: r.batch_id,
        position: r.position,
        accountId: r.account_id,
        requestId: r.request_id,
        status: r.status,
      }));
    },

    async endedWithoutWebhook(graceSeconds) {
      const rows = await sql<Row[]>`
        select * from batches b
        where b.status <> 'running' and b.callback_url is not null
          and b.finished_at between now() - interval '1 day' and now() - make_interval(secs => ${graceSeconds})
          and not exists (select 1 from webhook_deliveries d where d.job_id = b.id)
        order by b.finished_at limit 100`;
      return rows.map(fromRow);
    },

    async doneButRunning(graceSeconds) {
      const rows = await sql<{ id: string }[]>`
        select b.id from batches b
        where b.status = 'running' and b.updated_at < now() - make_interval(secs => ${graceSeconds})
          and not exists (select 1 from batch_items i where i.batch_id = b.id and i.status in ('queued', 'running'))
        order by b.updated_at limit 100`;
      return rows.map((r) => r.id);
    },
  };
}

function settling(sql: Sql): Pick<BatchStore, 'settleIfDone'> {
  return {
    async settleIfDone(batchId) {
      // One statement: the status moves once, for whoever sees the last item finish. Every item has finished, so
      // each one's credits_charged is final.
      const [row] = await sql<
        (Row & { unpaid_listing_pages: number; listing_kind: string | null; request_id: string })[]
      >`
        update batches b set
          status = case
            when exists (select 1 from batch_items where batch_id = b.id and status = 'cancelled') then 'cancelled'
            when exists (select 1 from batch_items where batch_id = b.id and status = 'succeeded') then 'succeeded'
            else 'failed' end,
          finished_at = now(), updated_at = now()
        where b.id = ${batchId} and b.status = 'running'
          and not exists (select 1 from batch_items where batch_id = b.id and status in ('queued', 'running'))
        returning *, case when exists (select 1 from batch_items where batch_id = b.id and credits_charged > 0)
          then 0 else b.listing_pages end as unpaid_listing_pages,
          case when b.source->>'playlist' is not null then 'playlist' when b.source->>'channel' is not null then 'channel'
            when b.source->>'search' is not null then 'search' end as listing_kind`;
      if (!row) return null;
      const listingKind = row.listing_kind as 'playlist' | 'channel' | 'search' | null;
      return { ...fromRow(row), unpaidListingPages: row.unpaid_listing_pages, listingKind, requestId: row.request_id };
    },
  };
}
