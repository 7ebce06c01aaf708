// One child job of a batch: claim the video (a cancelled one is skipped), do the operation, record the outcome,
// and end the batch when it was the last one, queueing its webhook.
import { isServiceError } from '../errors.ts';
import { queueWebhook, type WebhookDeps } from '../webhooks/deliver-webhook.ts';
import type { BatchStore, ClaimedItem } from './ports.ts';
import type { BatchItem } from './schemas.ts';
import { getBatch } from './get-batch.ts';

export type TranscriptOutcome = NonNullable<BatchItem['result']> & { creditsCharged: number };

export interface RunItemDeps extends Pick<WebhookDeps, 'webhooks' | 'enqueue'> {
  batches: BatchStore;
  /** Fetches and stores one transcript, charging the item's request on success. Throws ServiceError on failure. */
  transcribe: (item: ClaimedItem) => Promise<TranscriptOutcome>;
}

export async function runBatchItem(deps: RunItemDeps, job: { batchId: string; position: number }): Promise<void> {
  const item = await deps.batches.claimItem(job.batchId, job.position);
  if (item) {
    try {
      const { creditsCharged, ...result } = await deps.transcribe(item);
      await deps.batches.finishItem(job.batchId, job.position, { status: 'succeeded', result, error: null, creditsCharged });
    } catch (err) {
      // Anything but a ServiceError (the database went away) is left to the queue's retry.
      if (!isServiceError(err)) throw err;
      await deps.batches.finishItem(job.batchId, job.position, { status: 'failed', result: null, error: { code: err.code, message: err.message }, creditsCharged: 0 });
    }
  }
  await settleBatch(deps, job.batchId);
}

/** Ends the batch if nothing is left to run; the one caller that ends it queues the webhook. */
export async function settleBatch(deps: Omit<RunItemDeps, 'transcribe'>, batchId: string): Promise<void> {
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
