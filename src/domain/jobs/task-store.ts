// The `tasks` table: one row per request for long work, owned by the caller's account. The rows that wait on the
// same queued work share its dedup key (job_key); the worker moves all of them along together.
import type { Sql } from '../../../db/client.ts';
import { newId } from '../ids.ts';
import type { JobError, JobKind, JobResource, JobStatus } from './schemas.ts';

/** Where a finished task's result lives; read back from its own table when the job is shown. */
export type TaskResultRef =
  | { kind: 'translation'; videoId: string; sourceLang: string; targetLang: string }
  | { kind: 'summary'; articleId: string };

export interface TaskRow {
  id: string;
  accountId: string;
  kind: JobKind;
  status: JobStatus;
  progress: number;
  input: Record<string, unknown>;
  result: TaskResultRef | null;
  error: JobError | null;
  creditsCharged: number;
  requestId: string;
  jobKey: string | null;
  createdAt: Date;
  updatedAt: Date;
}

interface DbRow {
  id: string;
  account_id: string;
  kind: JobKind;
  status: JobStatus;
  progress: number;
  input: Record<string, unknown>;
  result: TaskResultRef | null;
  error: JobError | null;
  credits_charged: number;
  request_id: string;
  job_key: string | null;
  created_at: Date;
  updated_at: Date;
}

const fromDb = (r: DbRow): TaskRow => ({
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

export function presentTask(t: TaskRow): JobResource {
  return {
    id: t.id,
    kind: t.kind,
    status: t.status,
    progress: t.status === 'succeeded' ? 1 : Math.min(1, Math.max(0, t.progress)),
    ...(t.error ? { error: t.error } : {}),
    creditsCharged: t.creditsCharged,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

export interface NewTask {
  accountId: string;
  kind: JobKind;
  input: Record<string, unknown>;
  requestId: string;
  jobKey?: string | null;
  status?: JobStatus;
  result?: TaskResultRef | null;
  creditsCharged?: number;
}

export async function createTask(sql: Sql, t: NewTask): Promise<TaskRow> {
  const status = t.status ?? 'queued';
  const [row] = await sql<DbRow[]>`
    insert into tasks (id, account_id, kind, status, progress, input, result, credits_charged, request_id, job_key)
    values (${newId('job')}, ${t.accountId}, ${t.kind}, ${status}, ${status === 'succeeded' ? 1 : 0},
            ${sql.json(t.input as never)}, ${t.result ? sql.json(t.result as never) : null},
            ${t.creditsCharged ?? 0}, ${t.requestId}, ${t.jobKey ?? null})
    returning *`;
  return fromDb(row!);
}

/** The task, when it belongs to `accountId`; someone else's id reads as missing. */
export async function readTask(sql: Sql, id: string, accountId: string): Promise<TaskRow | null> {
  const [row] = await sql<DbRow[]>`select * from tasks where id = ${id} and account_id = ${accountId}`;
  return row ? fromDb(row) : null;
}

export async function deleteTask(sql: Sql, id: string): Promise<void> {
  await sql`delete from tasks where id = ${id}`;
}

/** Tasks still waiting on the work behind `jobKey`, oldest first. */
export async function waitingTasks(sql: Sql, jobKey: string): Promise<TaskRow[]> {
  const rows = await sql<DbRow[]>`
    select * from tasks where job_key = ${jobKey} and status in ('queued', 'running') order by created_at, id`;
  return rows.map(fromDb);
}

export async function setProgress(sql: Sql, jobKey: string, progress: number): Promise<void> {
  await sql`
    update tasks set status = 'running', progress = ${Math.min(1, Math.max(0, progress))}, updated_at = now()
    where job_key = ${jobKey} and status in ('queued', 'running')`;
}

/**
 * Every task waiting on `jobKey` succeeds with `result`; `chargedTaskId` (if any) records the charge, the others
 * were served by the same work for free.
 */
export async function succeedTasks(sql: Sql, jobKey: string, result: TaskResultRef, charged: { taskId: string; amount: number } | null): Promise<void> {
  await sql`
    update tasks set status = 'succeeded', progress = 1, result = ${sql.json(result as never)}, error = null,
      credits_charged = case when id = ${charged?.taskId ?? null} then ${charged?.amount ?? 0}::int else 0 end,
      updated_at = now()
    where job_key = ${jobKey} and status in ('queued', 'running')`;
}

export async function failTasks(sql: Sql, jobKey: string, error: JobError): Promise<void> {
  await sql`
    update tasks set status = 'failed', error = ${sql.json(error as never)}, credits_charged = 0, updated_at = now()
    where job_key = ${jobKey} and status in ('queued', 'running')`;
}

/** Settles one task whose work ended without moving it (see reconcile in get-job.ts). */
export async function settleTask(sql: Sql, id: string, outcome: { result: TaskResultRef } | { error: JobError }): Promise<void> {
  if ('result' in outcome) {
    await sql`
      update tasks set status = 'succeeded', progress = 1, result = ${sql.json(outcome.result as never)}, updated_at = now()
      where id = ${id} and status in ('queued', 'running')`;
  } else {
    await sql`
      update tasks set status = 'failed', error = ${sql.json(outcome.error as never)}, updated_at = now()
      where id = ${id} and status in ('queued', 'running')`;
  }
}
