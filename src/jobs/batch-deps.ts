// The narrow ports the batch and webhook verbs use, from the composition's Deps.
import type { Deps } from '../deps.ts';
import type { WebhookDeps } from '../domain/webhooks/deliver-webhook.ts';
import { enqueueBatchItems, enqueueWebhook } from './batch-queues.ts';
import { BATCH_ITEM_QUEUE, WEBHOOK_QUEUE } from './queues.ts';
import type { SweepItemsDeps } from '../domain/batches/sweep-stalled-items.ts';
import { getJob } from '../domain/tasks/get-job.ts';
import { isFinal } from '../domain/tasks/schemas.ts';
import type { TaskWebhookDeps } from '../domain/webhooks/task-webhooks.ts';

/** Webhooks are retried for a day. */
export const WEBHOOK_RETRY_WINDOW_MS = 24 * 60 * 60_000;

export const webhookDeps = (d: Deps): WebhookDeps => ({
  webhooks: d.webhooks,
  transport: d.webhookTransport,
  enqueue: (id, attempt, at) => enqueueWebhook(d.queue, id, attempt, at),
  retryBaseMs: d.config.WEBHOOK_RETRY_BASE_MS,
  retryWindowMs: WEBHOOK_RETRY_WINDOW_MS,
});

export const batchDeps = (d: Deps) => ({
  batches: d.batches,
  webhooks: d.webhooks,
  enqueue: webhookDeps(d).enqueue,
  enqueueItems: (batchId: string, positions: number[]) => enqueueBatchItems(d.queue, batchId, positions),
});

export const sweepItemsDeps = (d: Deps): SweepItemsDeps => ({
  ...batchDeps(d),
  tasks: d.tasks,
  ledger: d.ledger,
  log: d.log,
  queue: BATCH_ITEM_QUEUE,
  webhookQueue: WEBHOOK_QUEUE,
});

export const taskWebhookDeps = (d: Deps): TaskWebhookDeps => ({
  webhooks: d.webhooks,
  enqueue: webhookDeps(d).enqueue,
  finishedJob: async (caller, id) => {
    const job = await getJob(d, caller, { id });
    return isFinal(job.status) ? job : null;
  },
});
