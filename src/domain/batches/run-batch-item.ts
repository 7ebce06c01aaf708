// One child job of a batch: claim the video (a cancelled one is skipped), do the operation, record the outcome,
// and end the batch when it was the last one, queueing its webhook. Nothing is refunded: every charge is taken in the
// transaction that stores its result (an article's transcript, extracted before the article failed, stays stored),
// so it stands, and the item reports what the ledger took for its request. A transient failure (SERVICE_BUSY, which
// says when to retry; or an unexpected error, a database blip) puts the video back in the queue for later instead,
// a bounded number of times. A retried job (its worker died mid-item) takes the item back from `running`.
import type { LookupAdmission } from '../admission/lookup-admission.ts';
import { isServiceError } from '../errors.ts';
import type { CreditLedger } from '../credits/credit-ledger.ts';
import { giveUpRequest } from '../credits/holds.ts';
import type { Log } from '../ports.ts';
import type { JobError } from '../jobs/schemas.ts';
import type { JobStore } from '../jobs/job-store.ts';
import { queueWebhook, type WebhookPorts } from '../webhooks/deliver-webhook.ts';
import type { BatchRow, BatchStore, ClaimedItem } from './ports.ts';
import { getBatch } from './get-batch.ts';
import type { ItemOutcome } from './run-operation.ts';
import { chargeCancelledListing, type ListingChargePorts } from './cancelled-listing.ts';

export interface BatchItemJob {
  batchId: string;
  position: number;
  /** 1 for the first run; a video put back after a transient failure runs again with the next number. */
  attempt?: number;
}

export interface RunItemPorts extends Pick<WebhookPorts, 'webhooks' | 'enqueue'> {
  batches: BatchStore;
  /** A batch that ends having charged nothing counts its listing pages against the free allowance. */
  lookupAdmission: Pick<LookupAdmission, 'countUnpaid'>;
  /** A cancelled one pays them first, as far as it can. */
  listingCharges: ListingChargePorts;
  jobs: Pick<JobStore, 'failRequest'>;
  log: Log;
  /** Does the batch's operation for one video, charging the item's request as it goes. Throws ServiceError on failure. */
  run: (item: ClaimedItem) => Promise<ItemOutcome>;
  ledger: Pick<CreditLedger, 'chargedFor' | 'releaseHolds'>;
  /** Sends the item's job again, to start no earlier than `at`. */
  requeue: (job: Required<BatchItemJob>, at: Date) => Promise<void>;
}

/** Runs of one video before a transient failure ends it as failed. */
export const BATCH_ITEM_ATTEMPTS = 5;
/** First wait after an unexpected error; doubled at each attempt (10 s, 20 s, 40 s, 80 s). */
const UNEXPECTED_RETRY_MS = 10_000;
/** The wait after a SERVICE_BUSY that does not say how long. */
const BUSY_RETRY_SECONDS = 5;
/** Slack for the database's clock being behind ours when the item gives up the jobs it waits on. */
const CLOCK_SLACK_MS = 60_000;

/** The queue's own run count of this job: above 0 when pg-boss runs it again after its worker died or threw. */
export interface QueueRun {
  retryCount: number;
}

export async function runBatchItem(
  deps: RunItemPorts,
  job: BatchItemJob,
  run: QueueRun = { retryCount: 0 },
): Promise<void> {
  const attempt = job.attempt ?? 1;
  const item = await deps.batches.claimItem(job.batchId, job.position, run.retryCount > 0);
  if (item) {
    const started = new Date(Date.now() - CLOCK_SLACK_MS);
    try {
      const { result } = await deps.run(item);
      await deps.batches.finishItem(job.batchId, job.position, {
        status: 'succeeded',
        result,
        error: null,
        creditsCharged: await deps.ledger.chargedFor(item.accountId, item.requestId),
      });
    } catch (err) {
      const delayMs = retryDelayMs(err, attempt);
      if (!isServiceError(err))
        deps.log.warn({ err, batchId: job.batchId, position: job.position, attempt }, 'batch item failed unexpectedly');
      const error: JobError = isServiceError(err)
        ? { code: err.code, message: err.message }
        : {
            code: 'INTERNAL_ERROR',
            message: `The video could not be processed (an internal error, ${attempt} attempt${attempt === 1 ? '' : 's'})`,
          };
      // The work this attempt waits on (an article or translation still running) is given up: it finishing later
      // must not charge a video that already ended as failed.
      await giveUpRequest(deps, { accountId: item.accountId, requestId: item.requestId, since: started }, error);
      if (delayMs !== null && attempt < BATCH_ITEM_ATTEMPTS) {
        // Queued again first: should the send fail, the queue's own retry of this job claims the item and runs it.
        if (await deps.batches.requeueItem(job.batchId, job.position)) {
          await deps.requeue(
            { batchId: job.batchId, position: job.position, attempt: attempt + 1 },
            new Date(Date.now() + delayMs),
          );
          return;
        }
      }
      await deps.batches.finishItem(job.batchId, job.position, {
        status: 'failed',
        result: null,
        error,
        creditsCharged: await deps.ledger.chargedFor(item.accountId, item.requestId),
      });
    }
  }
  await settleBatch(deps, job.batchId);
}

/** How long to wait before running the video again, or null when its failure is final. */
function retryDelayMs(err: unknown, attempt: number): number | null {
  if (!isServiceError(err)) return UNEXPECTED_RETRY_MS * 2 ** (attempt - 1);
  // A lookup refused for now (the account's lookups in flight, the shared egress budget) is tried again, not failed.
  if (err.code === 'SERVICE_BUSY' || err.code === 'RATE_LIMITED')
    return Math.max(1, err.retryAfter ?? BUSY_RETRY_SECONDS) * 1000;
  return null;
}

/**
 * Ends the batch if nothing is left to run; the one caller that ends it queues the webhook, and settles its listing
 * pages when none of its videos paid: a cancelled batch pays them (chargeCancelledListing), and what it cannot pay,
 * or a batch whose videos all failed uncharged, counts as unpaid lookups.
 */
export async function settleBatch(
  deps: Pick<RunItemPorts, 'batches' | 'lookupAdmission' | 'listingCharges' | 'webhooks' | 'enqueue'>,
  batchId: string,
): Promise<void> {
  const done = await deps.batches.settleIfDone(batchId);
  if (!done) return;
  const unpaid = await chargeCancelledListing(deps.listingCharges, done).catch(() => done.unpaidListingPages);
  if (unpaid > 0) await deps.lookupAdmission.countUnpaid(done.accountId, unpaid);
  await queueBatchWebhook(deps, done);
}

/** Queues the event of an ended batch to its callback, if it has one. */
export async function queueBatchWebhook(
  deps: Pick<RunItemPorts, 'batches' | 'webhooks' | 'enqueue'>,
  done: BatchRow,
): Promise<void> {
  if (!done.callbackUrl) return;
  const view = await getBatch(deps, done.accountId, done.id);
  await queueWebhook(deps, {
    accountId: done.accountId,
    jobId: done.id,
    url: done.callbackUrl,
    event: done.status === 'succeeded' ? 'job.completed' : 'job.failed',
    job: { ...view, webhooks: [] },
  });
}
