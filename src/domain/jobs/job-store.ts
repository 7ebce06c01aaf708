// A job is one request for long work, owned by the caller's account (GET /jobs/{id} shows it; the `tasks` table
// holds it). The jobs that wait on the same queued work share its dedup key (jobKey); the worker moves them together.
import type { JobError, JobKind, JobResource, JobStatus } from './schemas.ts';

/** Where a finished job's result lives; read back from its own table when the job is shown. */
export type JobResultRef =
  | { kind: 'translation'; videoId: string; sourceLang: string; targetLang: string }
  | { kind: 'summary'; articleId: string }
  | { kind: 'transcript'; videoId: string; lang: string; origin: 'speech' };

export interface JobRow {
  id: string;
  accountId: string;
  kind: JobKind;
  status: JobStatus;
  progress: number;
  input: Record<string, unknown>;
  result: JobResultRef | null;
  error: JobError | null;
  creditsCharged: number;
  requestId: string;
  jobKey: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export function presentJob(t: JobRow): JobResource {
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

export interface NewJob {
  accountId: string;
  kind: JobKind;
  input: Record<string, unknown>;
  requestId: string;
  jobKey?: string | null;
  status?: JobStatus;
  result?: JobResultRef | null;
  creditsCharged?: number;
}

/** Implemented in src/infra/postgres/jobs.ts. */
export interface JobStore {
  create(t: NewJob): Promise<JobRow>;
  /** The job, when it belongs to `accountId`; someone else's id reads as missing. */
  read(id: string, accountId: string): Promise<JobRow | null>;
  delete(id: string): Promise<void>;
  /** Jobs still waiting on the work behind `jobKey`, oldest first. */
  waiting(jobKey: string): Promise<JobRow[]>;
  setProgress(jobKey: string, progress: number): Promise<void>;
  /**
   * Every job waiting on `jobKey` succeeds with `result`; `charged` (if any) records the charge, the others were
   * served by the same work for free. Returns the ids it moved.
   */
  succeedAll(
    jobKey: string,
    result: JobResultRef,
    charged: { jobId: string; amount: number } | null,
  ): Promise<string[]>;
  /** Every job waiting on `jobKey` fails with `error`; the ids it moved. */
  failAll(jobKey: string, error: JobError): Promise<string[]>;
  /**
   * Every job of the account's request (created since `since`) still waiting fails with `error`: the request
   * gave up on it, so the queued work can no longer pick it to pay. The ids it moved.
   */
  failRequest(accountId: string, requestId: string, since: Date, error: JobError): Promise<string[]>;
  /** Jobs still queued or running, untouched for `graceSeconds` by the database's clock, oldest first. */
  stalled(graceSeconds: number, limit: number): Promise<JobRow[]>;
  /** Settles one job whose work ended without moving it (see reconcileJob in llm-jobs.ts). */
  settle(id: string, outcome: { result: JobResultRef } | { error: JobError }): Promise<void>;
  recordLlmUsage(u: {
    jobId: string;
    operation: string;
    model: string;
    inputTokens: number;
    outputTokens: number;
  }): Promise<void>;
}
