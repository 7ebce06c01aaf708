// The `tasks` table: one row per request for long work, owned by the caller's account. The rows that wait on the
// same queued work share its dedup key (job_key); the worker moves all of them along together.
import type { Sql } from '../../../db/client.ts';
import { newId } from '../../domain/ids.ts';
import type { JobError, JobKind, JobStatus } from '../../domain/jobs/schemas.ts';
import type { JobResultRef, JobRow, JobStore } from '../../domain/jobs/job-store.ts';
import { jsonValue } from './json-value.ts';

interface DbRow {
  id: string;
  account_id: string;
  kind: JobKind;
  status: JobStatus;
  progress: number;
  input: Record<string, unknown>;
  result: JobResultRef | null;
  error: JobError | null;
  credits_charged: number;
  request_id: string;
  job_key: string | null;
  created_at: Date;
  updated_at: Date;
}

const fromDb = (r: DbRow): JobRow => ({
  id: r.id,
  accountId: r.account_id,
  kind: r.kind,
  status: r.status,
  progress: r.progress,
  input: r.input,
  result: r.result,
  error: r.error,
  creditsCharged: r.credits_charged,
  requestId: r.request_id,
  jobKey: r.job_key,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export function createJobStore(sql: Sql): JobStore {
  return { ...jobRows(sql), ...sharedWork(sql), ...jobRecovery(sql) };
}

function jobRows(sql: Sql): Pick<JobStore, 'create' | 'read' | 'delete' | 'recordLlmUsage'> {
  return {
    async create(t) {
      const status = t.status ?? 'queued';
      const [row] = await sql<DbRow[]>`
        insert into tasks (id, account_id, kind, status, progress, input, result, credits_charged, request_id, job_key)
        values (${newId('job')}, ${t.accountId}, ${t.kind}, ${status}, ${status === 'succeeded' ? 1 : 0},
                ${sql.json(jsonValue(t.input))}, ${t.result ? sql.json(jsonValue(t.result)) : null},
                ${t.creditsCharged ?? 0}, ${t.requestId}, ${t.jobKey ?? null})
        returning *`;
      return fromDb(row!);
    },

    async read(id, accountId) {
      const [row] = await sql<DbRow[]>`select * from tasks where id = ${id} and account_id = ${accountId}`;
      return row ? fromDb(row) : null;
    },

    async delete(id) {
      await sql`delete from tasks where id = ${id}`;
    },

    async recordLlmUsage(u) {
      await sql`
        insert into llm_usage (id, task_id, operation, model, input_tokens, output_tokens)
        values (${newId('llu')}, ${u.jobId}, ${u.operation}, ${u.model}, ${u.inputTokens}, ${u.outputTokens})`;
    },
  };
}

function sharedWork(sql: Sql): Pick<JobStore, 'waiting' | 'setProgress' | 'succeedAll' | 'failAll'> {
  return {
    async waiting(jobKey) {
      const rows = await sql<DbRow[]>`
        select * from tasks where job_key = ${jobKey} and status in ('queued', 'running') order by created_at, id`;
      return rows.map(fromDb);
    },

    async setProgress(jobKey, progress) {
      await sql`
        update tasks set status = 'running', progress = ${Math.min(1, Math.max(0, progress))}, updated_at = now()
        where job_key = ${jobKey} and status in ('queued', 'running')`;
    },

    async succeedAll(jobKey, result, charged) {
      const rows = await sql<{ id: string }[]>`
        update tasks set status = 'succeeded', progress = 1, result = ${sql.json(result)}, error = null,
          credits_charged = case when id = ${charged?.jobId ?? null} then ${charged?.amount ?? 0}::int else 0 end,
          updated_at = now()
        where job_key = ${jobKey} and status in ('queued', 'running')
        returning id`;
      return rows.map((r) => r.id);
    },

    async failAll(jobKey, error) {
      const rows = await sql<{ id: string }[]>`
        update tasks set status = 'failed', error = ${sql.json(error)}, credits_charged = 0, updated_at = now()
        where job_key = ${jobKey} and status in ('queued', 'running')
        returning id`;
      return rows.map((r) => r.id);
    },
  };
}

function jobRecovery(sql: Sql): Pick<JobStore, 'failRequest' | 'stalled' | 'settle'> {
  return {
    async failRequest(accountId, requestId, since, error) {
      const rows = await sql<{ id: string }[]>`
        update tasks set status = 'failed', error = ${sql.json(error)}, credits_charged = 0, updated_at = now()
        where account_id = ${accountId} and created_at >= ${since.toISOString()}::timestamptz and request_id = ${requestId}
          and status in ('queued', 'running')
        returning id`;
      return rows.map((r) => r.id);
    },

    async stalled(graceSeconds, limit) {
      const rows = await sql<DbRow[]>`
        select * from tasks where status in ('queued', 'running') and job_key is not null
          and updated_at < now() - make_interval(secs => ${graceSeconds})
        order by updated_at limit ${limit}`;
      return rows.map(fromDb);
    },

    async settle(id, outcome) {
      if ('result' in outcome) {
        await sql`
          update tasks set status = 'succeeded', progress = 1, result = ${sql.json(outcome.result)}, updated_at = now()
          where id = ${id} and status in ('queued', 'running')`;
      } else {
        await sql`
          update tasks set status = 'failed', error = ${sql.json(outcome.error)}, updated_at = now()
          where id = ${id} and status in ('queued', 'running')`;
      }
    },
  };
}
