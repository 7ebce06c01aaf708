// One child job of a batch: claim the video (a cancelled one is skipped), do the operation, record the outcome,
// and end the batch when it was the last one, queueing its webhook. A video that fails costs nothing: whatever its
// work charged on the way (an article's transcript, extracted before the article failed) is refunded.
import { isServiceError } from '../errors.ts';
import { queueWebhook, type WebhookDeps } from '../webhooks/deliver-webhook.ts';
import type { BatchStore, ClaimedItem } from './ports.ts';
import { getBatch } from './get-batch.ts';
import type { ItemOutcome } from './run-operation.ts';

export interface RunItemDeps extends Pick<WebhookDeps, 'webhooks' | 'enqueue'> {
  batches: BatchStore;
  /** Does the batch's operation for one video, charging the item's request as it goes. Throws ServiceError on failure. */
  run: (item: ClaimedItem) => Promise<ItemOutcome>;
  /** Gives back every charge the account's request made since `since`. */
  refund: (accountId: string, requestId: string, since: Date) => Promise<number>;
}

/** Slack for the database's clock being behind ours when refunds look for the charges an item made. */
const CLOCK_SLACK_MS = 60_000;

export async function runBatchItem(deps: RunItemDeps, job: { batchId: string; position: number }): Promise<void> {
  const item = await deps.batches.claimItem(job.batchId, job.position);
  if (item) {
    const started = new Date(Date.now() - CLOCK_SLACK_MS);
    try {
      const { result, creditsCharged } = await deps.run(item);
      await deps.batches.finishItem(job.batchId, job.position, { status: 'succeeded', result, error: null, creditsCharged });
    } catch (err) {
      // Anything but a ServiceError (the database went away) is left to the queue's retry.
      if (!isServiceError(err)) throw err;
      await deps.refund(item.accountId, item.requestId, started);
      await deps.batches.finishItem(job.batchId, job.position, { status: 'failed', result: null, error: { code: err.code, message: err.message }, creditsCharged: 0 });
    }
  }
  await settleBatch(deps, job.batchId);
}

/** Ends the batch if nothing is left to run; the one caller that ends it queues the webhook. */
export async function settleBatch(deps: Omit<RunItemDeps, 'run' | 'refund'>, batchId: string): Promise<void> {
  const done = await deps.batches.settleIfDone(batchId);
  if (!done?.callbackUrl) return;
  const view = await getBatch(deps, done.accountId, batchId);
  await queueWebhook(deps, {
    accountId: done.accountId,
    jobId: batchId,
    url: done.callbackUrl,
    event: done.status === 'succeeded' ? 'job.completed' : 'job.failed',
    job: { ...view, webhooks: [] },
  });
}
