import { PgBoss, type Job } from 'pg-boss';
import { isDatabaseDown } from '../../../db/database-errors.ts';
import type { Sql } from '../../../db/client.ts';
import { isServiceError } from '../../domain/errors.ts';
import type { JobOutcome } from '../../domain/work-queue.ts';
import type { Logger } from '../log/logger.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { withGlobalSlot } from './global-slots.ts';
import { refuseOverAccountShare, refuseWhenSaturated } from './queue-admission.ts';

export type { JobOutcome };

export interface QueueSpec {
  name: string;
  /** What its work is, as a refusal names it ("Extraction capacity is saturated"). */
  work?: string;
  /** Jobs this instance runs at once. */
  concurrency: number;
  /** A job running longer than this is presumed dead (worker killed) and retried. */
  expireInSeconds: number;
  retryLimit: number;
  /**
   * Workers refresh a heartbeat on their jobs; a job whose heartbeat is this many seconds old (its worker died) is
   * retried, well before `expireInSeconds`. pg-boss requires at least 10.
   */
  heartbeatSeconds?: number;
  /** Jobs of one group (an account) running at once across every instance; others of the group wait. */
  groupConcurrency?: number;
}

/**
 * How often pg-boss's supervisor looks for expired jobs and stale heartbeats (its default, 60 s, would add up to a
 * minute to every dead worker's job). One instance at a time does it (pg-boss takes a lock).
 */
export const SUPERVISE_INTERVAL_SECONDS = 5;

type Handler = (data: any, attempt: { retryCount: number; retryLimit: number }) => Promise<unknown>;

const CHANNEL = 'subtext_job_done';
/** Connections pg-boss's own pool may open (reported on /metrics). */
export const QUEUE_POOL_MAX = 4;

interface JobQueueOptions {
  url: string;
  sql: Sql;
  log: Logger;
  maxWaiting: number;
  /** One account's jobs queued or running per queue before its next is refused with 429 (0: no per-account cap). */
  maxWaitingPerAccount?: number;
  metrics?: Metrics;
}

interface QueueState {
  opts: JobQueueOptions;
  boss: PgBoss;
  // Several requests (in this process) may wait for the same job: every one of them is woken.
  waiters: Waiters;
  specs: Map<string, QueueSpec>;
  workerIds: Map<string, string>;
  settle: (id: string, outcome: JobOutcome) => void;
}

/**
 * pg-boss queues with capacity caps, deduplicated by key, and a way for a request to wait for
 * its job. Workers announce each outcome with NOTIFY so a waiter on any instance wakes at once;
 * a slow poll of pg-boss's own state covers a missed notification.
 */
export function createJobQueue(opts: JobQueueOptions) {
  const boss = new PgBoss({
    connectionString: opts.url,
    schema: 'pgboss',
    max: QUEUE_POOL_MAX,
    useListenNotify: true,
    superviseIntervalSeconds: SUPERVISE_INTERVAL_SECONDS,
    monitorIntervalSeconds: SUPERVISE_INTERVAL_SECONDS,
  });
  boss.on('error', (err: unknown) => opts.log.warn({ err }, 'job queue error'));
  const waiters: Waiters = new Map();
  const settle = (id: string, outcome: JobOutcome) => {
    const set = waiters.get(id);
    if (!set) return;
    waiters.delete(id);
    for (const w of set) w(outcome);
  };
  const state: QueueState = { opts, boss, waiters, specs: new Map(), workerIds: new Map(), settle };
  return { boss, ...queueLifecycle(state), ...queueWorkers(state), ...jobSubmission(state) };
}

function queueLifecycle({ opts, boss, specs, settle }: QueueState) {
  // For /readyz: true between a finished start() and pg-boss stopping (shutdown, drain).
  let running = false;
  boss.on('stopped', () => (running = false));
  let unlisten: (() => Promise<void>) | undefined;
  return {
    async start(queues: QueueSpec[]) {
      await boss.start();
      for (const q of queues) {
        specs.set(q.name, q);
        await declareQueue(boss, q);
      }
      unlisten = await listenForOutcomes(opts.sql, settle);
      running = true;
    },

    isRunning: () => running,

    async stop() {
      running = false;
      await unlisten?.().catch(() => {});
      await boss.stop({ graceful: true, timeout: 20_000 });
    },
  };
}

function queueWorkers({ opts, boss, specs, workerIds, settle }: QueueState) {
  return {
    async work(name: string, handler: Handler) {
      const spec = specs.get(name)!;
      const run = { sql: opts.sql, log: opts.log, metrics: opts.metrics, name, spec, handler, settle };
      const id = await boss.work(
        name,
        workOptions(spec) as any,
        (async (jobs: RunningJob[]) => runJob(run, jobs[0]!)) as any,
      );
      workerIds.set(name, id);
    },
  };
}

function jobSubmission({ opts, boss, specs, workerIds, waiters }: QueueState) {
  return {
    /**
     * Enqueues `data` under `key` (one job per key at a time) and waits up to `waitMs` for its
     * outcome. When a job with that key is already queued or running, waits for that one instead.
     * Returns `{ outcome, producer }`; `null` outcome when the wait ran out.
     */
    async run<T>(
      name: string,
      data: object,
      key: string,
      waitMs: number,
      /**
       * `group`: the account the job counts against (pg-boss's group: STT_ACCOUNT_CONCURRENCY runs a few of one
       * group's jobs at once where the queue sets groupConcurrency; elsewhere it only tags the job).
       */
      sendOpts: { group?: string } = {},
    ): Promise<{ id: string; producer: boolean; outcome: JobOutcome<T> | null }> {
      const spec = specs.get(name);
      const capacity = {
        concurrency: spec?.concurrency ?? 1,
        maxWaiting: opts.maxWaiting,
        work: spec?.work ?? 'Queue',
      };
      const live = await refuseWhenSaturated(opts.sql, name, key, capacity);
      if (sendOpts.group && !live.joining) {
        await refuseOverAccountShare(opts.sql, name, sendOpts.group, live.wouldWait, {
          perAccount: opts.maxWaitingPerAccount ?? 0,
          maxWaiting: opts.maxWaiting,
        });
      }
      const sent = await sendOrJoin(boss, workerIds, name, data, key, sendOpts);
      if (!sent) return this.run(name, data, key, waitMs, sendOpts); // finished in between: try again
      const outcome = await this.wait<T>(name, sent.id, waitMs);
      return { ...sent, outcome };
    },

    /** Whether a job with this key is queued or running on `name`; null when pg-boss cannot be asked now. */
    async liveJobExists(name: string, key: string): Promise<boolean | null> {
      const jobs = await boss.findJobs(name, { key }).catch(() => null);
      if (!jobs) return null;
      return jobs.some((j: { state: string }) => ['created', 'retry', 'active'].includes(j.state));
    },

    wait<T>(name: string, id: string, waitMs: number): Promise<JobOutcome<T> | null> {
      return waitForOutcome<T>(boss, waiters, name, id, waitMs);
    },
  };
}

const DATABASE_WAIT_MS = 30_000;

type Waiters = Map<string, Set<(o: JobOutcome) => void>>;

/** Sends the job, or finds the one already queued or running under `key`; null when that one finished meanwhile. */
async function sendOrJoin(
  boss: PgBoss,
  workerIds: Map<string, string>,
  name: string,
  data: object,
  key: string,
  sendOpts: { group?: string },
): Promise<{ id: string; producer: boolean } | null> {
  const id = await boss.send(name, data, {
    singletonKey: key,
    ...(sendOpts.group ? { group: { id: sendOpts.group } } : {}),
  });
  if (id) {
    const wid = workerIds.get(name);
    if (wid) boss.notifyWorker(wid); // wake the local worker now rather than at its next poll
    return { id, producer: true };
  }
  const existing = (await boss.findJobs(name, { key })).find((j) => ['created', 'retry', 'active'].includes(j.state));
  return existing ? { id: existing.id, producer: false } : null;
}

/** Creates the queue, or brings an existing one's retry, expiry and heartbeat settings to `q`'s. */
async function declareQueue(boss: PgBoss, q: QueueSpec) {
  const existing = await boss.getQueue(q.name);
  const options = {
    retryLimit: q.retryLimit,
    retryDelay: 1,
    retryBackoff: true,
    expireInSeconds: q.expireInSeconds,
    heartbeatSeconds: q.heartbeatSeconds ?? null,
    notify: true,
  };
  if (!existing)
    await boss.createQueue(q.name, {
      policy: 'exclusive',
      ...options,
      heartbeatSeconds: q.heartbeatSeconds,
    });
  else await boss.updateQueue(q.name, options);
}

/** Settles this process's waiters on every outcome any instance announces; returns the way to stop listening. */
async function listenForOutcomes(sql: Sql, settle: (id: string, outcome: JobOutcome) => void) {
  const sub = await sql.listen(CHANNEL, (payload) => {
    try {
      const { id, outcome } = JSON.parse(payload) as { id: string; outcome: JobOutcome };
      settle(id, outcome);
    } catch {
      /* not ours */
    }
  });
  return sub.unlisten;
}

/**
 * With LISTEN/NOTIFY on, pg-boss polls only every 30 s by default and a job coming back from `retry` sends no
 * notification, so a retry (due after 1-4 s of backoff) would wait for that poll, outlasting the request waiting for
 * it. Poll every second as well.
 */
function workOptions(spec: QueueSpec) {
  return {
    localConcurrency: spec.concurrency,
    ...(spec.groupConcurrency ? { groupConcurrency: spec.groupConcurrency } : {}),
    pollingIntervalSeconds: 0.5,
    notifyPollingIntervalSeconds: 1,
    includeMetadata: true,
    batchSize: 1,
  };
}

interface JobRun {
  sql: Sql;
  log: Logger;
  metrics: Metrics | undefined;
  name: string;
  spec: QueueSpec;
  handler: Handler;
  settle: (id: string, outcome: JobOutcome) => void;
}

type RunningJob = Job<any> & { retryCount: number; retryLimit: number; createdOn?: Date; startedOn?: Date };

/** Runs one job under the global cap, records its metrics and announces its outcome; throws to have pg-boss retry. */
async function runJob({ sql, log, metrics: m, name, spec, handler, settle }: JobRun, job: RunningJob) {
  const began = performance.now();
  if (job.createdOn)
    m?.jobWaitSeconds.observe(
      { queue: name },
      Math.max(0, ((job.startedOn ?? new Date()).getTime() - job.createdOn.getTime()) / 1000),
    );
  const ended = (state: 'completed' | 'failed' | 'retried') => {
    m?.jobs.inc({ queue: name, state });
    m?.jobRunSeconds.observe({ queue: name }, (performance.now() - began) / 1000);
  };
  let outcome: JobOutcome;
  try {
    // The cap holds across every instance: each may fetch `concurrency` jobs, but only that many run at once.
    const attempt = { retryCount: job.retryCount, retryLimit: job.retryLimit };
    outcome = { ok: true, value: await withGlobalSlot(sql, name, spec.concurrency, () => handler(job.data, attempt)) };
  } catch (err) {
    // The database went away under the handler: pg-boss could not record a failure now, and the job would
    // sit `active` until its heartbeat or expiry ran out. Wait for the database (bounded) and then fail it,
    // so pg-boss retries it within seconds of the database's return.
    if (isDatabaseDown(err)) await untilDatabaseBack(sql, DATABASE_WAIT_MS);
    if (isRetryable(err) && job.retryCount < job.retryLimit) {
      ended('retried');
      throw err; // pg-boss retries with backoff
    }
    if (!isServiceError(err))
      (isDatabaseDown(err) ? log.warn : log.error).call(log, { err, queue: name }, 'job failed');
    outcome = { ok: false, error: failure(err) };
  }
  // Waiters in this process first, without the database: a charged result must reach its requester even
  // if the NOTIFY below cannot be sent. Then every other instance (settle() ignores ids it has no waiter for).
  ended(outcome.ok ? 'completed' : 'failed');
  settle(job.id, outcome);
  await notifyWhenUp(sql, JSON.stringify({ id: job.id, outcome: shrink(outcome) }));
  return outcome;
}

function isRetryable(err: unknown): boolean {
  return (
    !isServiceError(err) ||
    (!err.final && (err.code === 'EXTRACTION_FAILED' || err.code === 'LLM_FAILED' || err.code === 'FRAME_FAILED'))
  );
}

/**
 * The error a failed job's waiters see: a service error as it is; the database away on the last attempt as busy
 * (503, retry shortly: nothing is wrong with the work); anything else as a generic failure.
 */
function failure(err: unknown) {
  if (isServiceError(err))
    return {
      code: err.code,
      message: err.message,
      ...(err.retryAfter !== undefined ? { retryAfter: err.retryAfter } : {}),
    };
  if (isDatabaseDown(err))
    return {
      code: 'SERVICE_BUSY' as const,
      message: 'The service was briefly unavailable; retry in a few seconds (nothing was charged)',
      retryAfter: 5,
    };
  return { code: 'EXTRACTION_FAILED' as const, message: 'The work failed; nothing was charged' };
}

/**
 * A job pg-boss failed or cancelled without an outcome of ours: its worker died on every attempt (the last one's
 * heartbeat ran out). Nothing about the work failed; the service lost its worker, so the caller is told to retry.
 */
const STOPPED = {
  code: 'SERVICE_BUSY' as const,
  message: 'The job stopped on every attempt without a result (its worker stopped); nothing was charged. Retry shortly',
  retryAfter: 5,
};

/** Waits for job `id`'s outcome: its NOTIFY, or a poll of pg-boss's row each second; null after `waitMs`. */
function waitForOutcome<T>(
  boss: PgBoss,
  waiters: Waiters,
  name: string,
  id: string,
  waitMs: number,
): Promise<JobOutcome<T> | null> {
  return new Promise((resolve) => {
    const finish = (o: JobOutcome | null) => {
      clearTimeout(timer);
      clearInterval(poll);
      const set = waiters.get(id);
      set?.delete(finish);
      if (set?.size === 0) waiters.delete(id);
      resolve(o as JobOutcome<T> | null);
    };
    const timer = setTimeout(() => finish(null), waitMs);
    const poll = setInterval(async () => {
      const [job] = await boss.findJobs(name, { id }).catch(() => []);
      if (!job) return;
      if (job.state === 'completed') finish(job.output as JobOutcome);
      else if (job.state === 'failed' || job.state === 'cancelled') finish({ ok: false, error: STOPPED });
    }, 1000);
    if (!waiters.has(id)) waiters.set(id, new Set());
    waiters.get(id)!.add(finish);
  });
}

/** Resolves once `select 1` answers again, or after `maxMs`. */
async function untilDatabaseBack(sql: Sql, maxMs: number): Promise<void> {
  const until = Date.now() + maxMs;
  while (Date.now() < until) {
    try {
      await sql`select 1`;
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/** NOTIFY, retried while the database is briefly unreachable (the outcome is also in pg-boss's job row). */
async function notifyWhenUp(sql: Sql, payload: string): Promise<void> {
  try {
    await sql.notify(CHANNEL, payload);
  } catch (err) {
    if (!isDatabaseDown(err)) throw err;
    await untilDatabaseBack(sql, DATABASE_WAIT_MS);
    await sql.notify(CHANNEL, payload);
  }
}

/** NOTIFY payloads are limited to 8000 bytes; outcomes are small, but messages are not ours to trust. */
function shrink(o: JobOutcome): JobOutcome {
  if (o.ok) return JSON.stringify(o).length < 7000 ? o : ({ ok: true, value: null } as JobOutcome);
  return { ok: false, error: { ...o.error, message: o.error.message.slice(0, 2000) } };
}

export type JobQueue = ReturnType<typeof createJobQueue>;
