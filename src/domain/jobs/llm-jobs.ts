// Long LLM work (translations, LLM summaries) runs as queue jobs on the LLM queue. A request creates its job row,
// enqueues (or joins) the queue job by key, waits a bounded time, then answers with whatever the job row says:
// the result, the failure, or a pollable job (202). The worker stores the result and charges in one transaction.
import { commitSettled } from '../credits/charged-operation.ts';
import { releaseHolds, reserveCredits, unpaid } from '../credits/holds.ts';
import type { PaidQueue } from '../credits/credit-ledger.ts';
import { isServiceError, ServiceError } from '../errors.ts';
import type { CallerRequest } from '../keys/caller.ts';
import type { Llm, LlmUsage, Log } from '../ports.ts';
import type { Settings } from '../settings.ts';
import type { Stores, Transaction } from '../stores.ts';
import type { JobRun, LlmJob, WorkQueue } from '../work-queue.ts';
import type { JobKind } from './schemas.ts';
import type { JobResultRef, JobRow } from './job-store.ts';

/** What a request for LLM work (or speech-to-text, which runs the same way on its own queue) and its worker need. */
export interface LlmJobPorts extends Pick<Stores, 'jobs' | 'translations' | 'articles' | 'transcripts' | 'ledger'> {
  workQueue: WorkQueue;
}

/** What a job's work costs the caller: reserved (a hold on its job) before it is enqueued. */
export interface JobCharge {
  amount: number;
  operation: 'translation' | 'summary' | 'speech';
  videoId: string;
  queue: PaidQueue;
  dailyAllowance: number;
}

/**
 * Creates the caller's job, enqueues the queue job (or joins the one running under the same key), and waits up to
 * `waitMs`. Returns the job as it stands then: succeeded, failed, or still queued/running (the caller answers
 * 202 with it). 503 SERVICE_BUSY when the queue is saturated (nothing is left behind).
 */
export async function runLlmJob(
  deps: LlmJobPorts,
  req: CallerRequest,
  opts: {
    kind: JobKind;
    input: Record<string, unknown>;
    key: string;
    job: (jobId: string) => LlmJob;
    waitMs: number;
    charge: JobCharge;
  },
): Promise<JobRow> {
  return runJob(deps, req, {
    ...opts,
    enqueue: (jobId) => deps.workQueue.llm(opts.job(jobId), opts.key, Math.max(0, opts.waitMs), req.caller.accountId),
  });
}

/** runLlmJob for any queue: `enqueue` sends (or joins) the queue job for the new job and waits for it. */
export async function runJob(
  deps: LlmJobPorts,
  req: CallerRequest,
  opts: {
    kind: JobKind;
    input: Record<string, unknown>;
    key: string;
    enqueue: (jobId: string) => Promise<JobRun<unknown>>;
    charge: JobCharge;
  },
): Promise<JobRow> {
  const job = await deps.jobs.create({
    accountId: req.caller.accountId,
    kind: opts.kind,
    input: opts.input,
    requestId: req.requestId,
    jobKey: opts.key,
  });
  let outcome;
  let holdId: number | undefined;
  try {
    // Paid before it takes a place in the queue: a request that cannot pay never enqueues anything.
    holdId = await reserveJobCharge(deps, req, job.id, opts.key, opts.charge);
    ({ outcome } = await opts.enqueue(job.id));
  } catch (err) {
    if (holdId !== undefined) await releaseHolds(deps, { holdIds: [holdId] }).catch(() => {});
    await deps.jobs.delete(job.id).catch(() => {});
    throw err;
  }
  const row = (await deps.jobs.read(job.id, req.caller.accountId)) ?? job;
  // The queue job ended but our row was not moved: we joined it after its last update. reconcileJob settles it.
  if (outcome && (row.status === 'queued' || row.status === 'running')) return (await reconcileJob(deps, row)) ?? row;
  return row;
}

function reserveJobCharge(deps: LlmJobPorts, req: CallerRequest, jobId: string, key: string, charge: JobCharge) {
  return reserveCredits(
    deps,
    {
      accountId: req.caller.accountId,
      amount: charge.amount,
      operation: charge.operation,
      videoId: charge.videoId,
      requestId: req.requestId,
      job: { queue: charge.queue, key },
      jobId,
    },
    charge.dailyAllowance,
  );
}

/** A failed job as the error it ended with. */
export function jobError(job: JobRow): ServiceError {
  return new ServiceError(job.error?.code ?? 'LLM_FAILED', job.error?.message ?? 'The job failed; nothing was charged');
}

/** Wait left of a request's budget (REQUEST_WAIT_MS from its start), so no call outlives it. */
export const remainingWait = (deps: { config: Pick<Settings, 'REQUEST_WAIT_MS'> }, startedAt: number) =>
  Math.max(0, deps.config.REQUEST_WAIT_MS - (Date.now() - startedAt));

// ---- worker side ------------------------------------------------------------------------------------------------

export interface CommitPorts extends Pick<Stores, 'jobs' | 'ledger'> {
  transaction: Transaction;
  config: Pick<Settings, 'DAILY_FREE_CREDITS'>;
}

/**
 * Stores a finished result and settles its payer's hold in one transaction (commitSettled), then marks every waiting
 * job succeeded and gives the others' holds back. The queue job's own requester pays; when their hold is gone, the
 * next waiting requester with credits held does (they asked for this very result). Nobody: nothing is stored, 402.
 *
 * The same work can finish twice: a pg-boss retry after a missed heartbeat while the first run is alive, or two
 * keys (a language hint and none) producing the same stored row. So the charge commits only together with the
 * payer's job moving to succeeded in the same transaction, and not at all when `store` says the result was
 * already there (`isNew: false`); the waiting list read before is only the order in which payers are tried.
 */
export async function commitResult<T>(
  deps: CommitPorts,
  job: { key: string; jobId: string; price: number; videoId: string },
  store: (tx: Stores) => Promise<{ value: T; ref: JobResultRef; isNew?: boolean }>,
): Promise<T> {
  const waiting = await deps.jobs.waiting(job.key);
  const holds = await deps.ledger.jobHolds(waiting.map((row) => row.id));
  // Only a requester whose credits are held can pay: the producer first, then the others in the order they asked.
  const payers = [...waiting.filter((row) => row.id === job.jobId), ...waiting.filter((row) => row.id !== job.jobId)]
    .map((row) => ({ row, hold: holds.get(row.id) }))
    .filter((p): p is { row: JobRow; hold: { id: number; amount: number } } => p.hold !== undefined);
  let lastError: unknown = payers.length ? alreadySettled() : unpaid();
  for (const { row: payer, hold } of payers) {
    try {
      const { value } = await commitSettled(
        deps.transaction,
        { id: hold.id, accountId: payer.accountId },
        job.price,
        deps.config.DAILY_FREE_CREDITS,
        async (tx) => {
          const { value, ref, isNew = true } = await store(tx);
          const settled = await tx.jobs.succeedAll(job.key, ref, isNew ? { jobId: payer.id, amount: job.price } : null);
          // Throwing rolls back the store too: this payer's job was settled (or given up) since it was read.
          if (isNew && !settled.includes(payer.id)) throw new PayerGone();
          // Everyone else waiting was served by the same work: their holds go back in the same transaction.
          await tx.ledger.releaseHolds({ jobIds: settled.filter((id) => id !== payer.id || !isNew) });
          return { value, isNew };
        },
        (r) => r.isNew,
      );
      return value;
    } catch (err) {
      if (err instanceof PayerGone) lastError = alreadySettled();
      else if (isServiceError(err) && err.code === 'INSUFFICIENT_CREDITS') lastError = err;
      else throw err;
    }
  }
  throw lastError;
}

/**
 * The worker's check before it calls the model or the engine: some job waiting on `key` has its credits held, else
 * 402 (final) and nothing is called.
 */
export async function assertJobPaid(deps: Pick<Stores, 'jobs' | 'ledger'>, key: string): Promise<void> {
  const waiting = await deps.jobs.waiting(key);
  const holds = await deps.ledger.jobHolds(waiting.map((row) => row.id));
  if (holds.size === 0) throw unpaid();
}

/** Every job waiting on `key` succeeds with a result already stored (free by rule): their holds go back. */
export async function succeedFree(deps: Pick<Stores, 'jobs' | 'ledger'>, key: string, ref: JobResultRef) {
  const moved = await deps.jobs.succeedAll(key, ref, null);
  await releaseHolds(deps, { jobIds: moved });
}

class PayerGone extends Error {}

const alreadySettled = () =>
  new ServiceError(
    'LLM_FAILED',
    'No request is waiting for this job any more (another run settled it, or it was given up); nothing was stored or charged',
  );

/** An Llm that adds up the tokens of every call (failed jobs included) and reports each finished call. */
export function meteredLlm(llm: Llm, onCall?: (calls: number) => void): Llm & { usage: LlmUsage; calls: () => number } {
  const usage: LlmUsage = { inputTokens: 0, outputTokens: 0 };
  let calls = 0;
  return {
    model: llm.model,
    usage,
    calls: () => calls,
    async generate(req) {
      const out = await llm.generate(req);
      usage.inputTokens += out.usage.inputTokens;
      usage.outputTokens += out.usage.outputTokens;
      onCall?.(++calls);
      return out;
    },
  };
}

export async function recordUsage(
  deps: Pick<Stores, 'jobs'>,
  jobId: string,
  operation: string,
  llm: { model: string; usage: LlmUsage },
): Promise<void> {
  if (llm.usage.inputTokens === 0 && llm.usage.outputTokens === 0) return;
  await deps.jobs.recordLlmUsage({
    jobId,
    operation,
    model: llm.model,
    inputTokens: llm.usage.inputTokens,
    outputTokens: llm.usage.outputTokens,
  });
}

/** Progress writes at most every `everyMs` (a 3-hour translation reports dozens of chunks), the last one always. */
export function progressReporter(deps: Pick<Stores, 'jobs'> & { log: Log }, key: string, everyMs = 250) {
  let last = 0;
  let pending: Promise<void> = Promise.resolve();
  return {
    report(fraction: number, force = false) {
      const now = Date.now();
      if (!force && now - last < everyMs) return;
      last = now;
      pending = pending.then(() =>
        deps.jobs.setProgress(key, fraction).catch((err: unknown) => deps.log.warn({ err }, 'progress update failed')),
      );
    },
    flush: () => pending,
  };
}

/**
 * A job still queued/running whose queue job has ended (it joined after the queue job's last update, or the queue
 * job died past its retries) is settled from what is stored: the result if it exists, else a failure. Returns null
 * when the queue job is still alive.
 */
export async function reconcileJob(
  deps: LlmJobPorts,
  job: JobRow,
  resultRef?: () => Promise<JobResultRef | null>,
): Promise<JobRow | null> {
  if (!job.jobKey) return null;
  const alive = await (job.kind === 'transcription'
    ? deps.workQueue.speechJobAlive(job.jobKey)
    : deps.workQueue.llmJobAlive(job.jobKey));
  if (alive !== false) return null; // alive, or cannot tell: leave it
  const ref = await (resultRef ?? (() => findStoredResult(deps, job)))();
  await deps.jobs.settle(
    job.id,
    ref
      ? { result: ref }
      : {
          // Its queue job ended with nothing stored: it died on every attempt (a failure of the work itself would
          // have settled the job with its reason), so the caller is told to retry, not that the work failed.
          error: {
            code: 'SERVICE_BUSY',
            message: 'The job stopped without a result; nothing was charged. Send the request again.',
          },
        },
  );
  // Its work is over either way: whatever it still held goes back (a settled hold is left as it is).
  await releaseHolds(deps, { jobIds: [job.id] });
  return deps.jobs.read(job.id, job.accountId);
}

/** The stored result a job asked for, if some queue job has produced it. */
async function findStoredResult(
  deps: Pick<Stores, 'translations' | 'articles' | 'transcripts'>,
  job: JobRow,
): Promise<JobResultRef | null> {
  const i = job.input as Record<string, string>;
  if (job.kind === 'transcription') {
    const found = await deps.transcripts.findSpeech(i.videoId ?? '', i.lang ?? null);
    return found ? { kind: 'transcript', videoId: i.videoId!, lang: found.lang, origin: 'speech' } : null;
  }
  if (job.kind === 'translation') {
    const found = await deps.translations.exists(i.videoId ?? '', i.resolvedSourceLang ?? '', i.targetLang ?? '');
    return found
      ? { kind: 'translation', videoId: i.videoId!, sourceLang: i.resolvedSourceLang!, targetLang: i.targetLang! }
      : null;
  }
  const id = await deps.articles.idOfVariant({
    videoId: i.videoId ?? '',
    lang: i.lang ?? '',
    length: i.length ?? '',
    sourceLang: i.resolvedSourceLang ?? '',
  });
  return id ? { kind: 'summary', articleId: id } : null;
}
