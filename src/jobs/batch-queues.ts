// Enqueuing batch items and webhook attempts (names in queues.ts, payload schemas in payloads.ts).
import type { JobQueue } from '../infra/queue/job-queue.ts';
import { BatchItemPayload, WebhookPayload } from './payloads.ts';
import { BATCH_ITEM_QUEUE, WEBHOOK_QUEUE } from './queues.ts';

/** One job per batch item; the key makes a repeated enqueue a no-op. */
export async function enqueueBatchItems(
  queue: Pick<JobQueue, 'boss'>,
  batchId: string,
  positions: number[],
): Promise<void> {
  if (positions.length === 0) return;
  await queue.boss.insert(
    BATCH_ITEM_QUEUE,
    positions.map((position) => ({
      data: BatchItemPayload.parse({ batchId, position }),
      singletonKey: `${batchId}:${position}`,
    })),
  );
}

/** A video sent again after a transient failure: its own key per attempt (the running job still holds the first). */
export async function requeueBatchItem(
  queue: Pick<JobQueue, 'boss'>,
  job: { batchId: string; position: number; attempt: number },
  at: Date,
): Promise<void> {
  await queue.boss.send(BATCH_ITEM_QUEUE, BatchItemPayload.parse(job), {
    singletonKey: `${job.batchId}:${job.position}:${job.attempt}`,
    startAfter: at,
  });
}

/** One job per delivery attempt, started no earlier than `at`. */
export async function enqueueWebhook(
  queue: Pick<JobQueue, 'boss'>,
  deliveryId: string,
  attempt: number,
  at: Date | null,
): Promise<void> {
  await queue.boss.send(WEBHOOK_QUEUE, WebhookPayload.parse({ deliveryId }), {
    singletonKey: `${deliveryId}:${attempt}`,
    ...(at ? { startAfter: at } : {}),
  });
}
