// Pay before work: every operation that spends the operator's money (a language model, a speech-to-text engine,
// ffmpeg, YouTube) reserves the caller's credits before the work starts. The worker settles the hold into a charge
// in the transaction that stores the result, and releases it when the work fails or someone else paid; a hold left
// by a process that died is released by the sweep once its job is gone. A request that cannot reserve is refused
// with 402 before it takes a place in any queue.
import { ServiceError } from '../errors.ts';
import type { Settings } from '../settings.ts';
import type { Stores } from '../stores.ts';
import type { HoldRequest } from './credit-ledger.ts';
import { insufficientCredits } from './credits.ts';
import type { WorkQueue } from '../work-queue.ts';
import type { JobStore } from '../jobs/job-store.ts';
import type { JobError } from '../jobs/schemas.ts';

type LedgerPorts = Pick<Stores, 'ledger'>;

/** Reserves `req.amount` credits; 402 when what the account can spend now (other holds aside) does not cover it. */
export async function reserveCredits(
  { ledger }: LedgerPorts,
  req: HoldRequest,
  dailyAllowance: number,
  now = new Date(),
): Promise<number> {
  const id = await ledger.hold(req, dailyAllowance, now);
  if (id === null) throw await insufficientCredits({ ledger }, req.accountId, req.amount, dailyAllowance, now);
  return id;
}

/**
 * Reserves one hold per item, all or none: when one cannot be reserved, those taken are released and 402 is thrown.
 */
export async function reserveEach(ports: LedgerPorts, reqs: HoldRequest[], dailyAllowance: number): Promise<number[]> {
  const ids: number[] = [];
  try {
    for (const req of reqs) ids.push(await reserveCredits(ports, req, dailyAllowance));
    return ids;
  } catch (err) {
    await releaseHolds(ports, { holdIds: ids });
    throw err;
  }
}

/** Turns a hold into a charge of `amount`; 402 when the hold was released meanwhile and the credits are not there. */
export async function settleHold(
  { ledger }: LedgerPorts,
  hold: { id: number; accountId: string },
  amount: number,
  dailyAllowance: number,
  now = new Date(),
): Promise<number> {
  const id = await ledger.settleHold(hold.id, amount, dailyAllowance, now);
  if (id === null) throw await insufficientCredits({ ledger }, hold.accountId, amount, dailyAllowance, now);
  return id;
}

/** Gives held credits back (a hold already settled or released is left as it is). */
export async function releaseHolds(
  { ledger }: { ledger: Pick<Stores['ledger'], 'releaseHolds'> },
  which: { holdIds?: number[]; jobIds?: string[] },
): Promise<number> {
  return ledger.releaseHolds(which);
}

/**
 * A request gives up the work it waits on (a batch item that failed or will be retried): its jobs fail, so the queued
 * work can no longer pick them to pay, and what they held goes back now, not when the sweep next finds them ended
 * (a retry of the same item would be refused for credits nobody uses). The ids of the jobs it moved.
 */
export async function giveUpRequest(
  deps: { ledger: Pick<Stores['ledger'], 'releaseHolds'>; jobs: Pick<JobStore, 'failRequest'> },
  request: { accountId: string; requestId: string; since: Date },
  error: JobError,
): Promise<string[]> {
  const failed = await deps.jobs.failRequest(request.accountId, request.requestId, request.since, error);
  await releaseHolds(deps, { jobIds: failed });
  return failed;
}

/** The worker's check before it calls an engine: the job is paid for (its hold still holds), else 402, final. */
export async function assertHeld({ ledger }: LedgerPorts, holdId: number): Promise<void> {
  if (await ledger.isHeld(holdId)) return;
  throw unpaid();
}

export const unpaid = () =>
  new ServiceError(
    'INSUFFICIENT_CREDITS',
    'No credits are held for this work any more (its request gave up, or the hold was released); nothing was done or charged',
    undefined,
    { final: true },
  );

export interface HoldSweepPorts extends LedgerPorts {
  workQueue: Pick<WorkQueue, 'jobAlive'>;
  config: Pick<Settings, 'REQUEST_WAIT_MS'>;
}

/** Holds younger than this are never swept: a request reserves before it enqueues. */
const HOLD_SWEEP_GRACE_SECONDS = 30;
/** Past a request's wait, the margin before its jobless holds may be swept (its finally releases them first). */
const REQUEST_END_MARGIN_SECONDS = 5;

/**
 * Releases holds whose work is over without settling them: their job ended, or no queue job lives under their key (its
 * worker was killed on every attempt, or the request died between reserving and enqueuing). A hold without a job
 * belongs to a request that sends its queue jobs a few at a time (frames) while it waits: it is not swept before that wait
 * could have ended. One pass; the credits given back.
 */
export async function sweepStaleHolds(deps: HoldSweepPorts, graceSeconds = HOLD_SWEEP_GRACE_SECONDS): Promise<number> {
  const requestEnd = Math.max(graceSeconds, deps.config.REQUEST_WAIT_MS / 1000 + REQUEST_END_MARGIN_SECONDS);
  const stale: number[] = [];
  for (const hold of await deps.ledger.openHolds(graceSeconds, 100)) {
    if (hold.jobId) {
      // The job is moved by its queue job, or by the job sweep once its queue job is gone (reconcileJob).
      if (hold.jobStatus !== 'queued' && hold.jobStatus !== 'running') stale.push(hold.id);
    } else if (
      hold.ageSeconds >= requestEnd &&
      (!hold.job || (await deps.workQueue.jobAlive(hold.job.queue, hold.job.key)) === false)
    )
      stale.push(hold.id);
  }
  return stale.length ? deps.ledger.releaseHolds({ holdIds: stale }) : 0;
}
