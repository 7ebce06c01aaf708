// The narrow ports the batch and webhook verbs use, taken from what the composition hands a procedure or a worker.
import type { BatchStore } from './ports.ts';
import { getJob } from '../tasks/get-job.ts';
import type { LlmTaskPorts } from '../tasks/llm-tasks.ts';
import { isFinal } from '../tasks/schemas.ts';
import type { WebhookDeps } from '../webhooks/deliver-webhook.ts';
import type { WebhookStore, WebhookTransport } from '../webhooks/ports.ts';
import type { TaskWebhookDeps } from '../webhooks/task-webhooks.ts';

/** Webhooks are retried for a day. */
const WEBHOOK_RETRY_WINDOW_MS = 24 * 60 * 60_000;

export interface BatchSources extends LlmTaskPorts {
  batches: BatchStore;
  webhooks: WebhookStore;
  webhookTransport: WebhookTransport;
  config: { WEBHOOK_RETRY_BASE_MS: number };
}

export const webhookPorts = (d: BatchSources): WebhookDeps => ({
  webhooks: d.webhooks,
  transport: d.webhookTransport,
  enqueue: (id, attempt, at) => d.jobs.webhook(id, attempt, at),
  retryBaseMs: d.config.WEBHOOK_RETRY_BASE_MS,
  retryWindowMs: WEBHOOK_RETRY_WINDOW_MS,
});

export const batchPorts = (d: BatchSources) => ({
  batches: d.batches,
  webhooks: d.webhooks,
  enqueue: webhookPorts(d).enqueue,
  enqueueItems: (batchId: string, positions: number[]) => d.jobs.batchItems(batchId, positions),
});

export const taskWebhookPorts = (d: BatchSources): TaskWebhookDeps => ({
  webhooks: d.webhooks,
  enqueue: webhookPorts(d).enqueue,
  finishedJob: async (caller, id) => {
    const job = await getJob(d, caller, { id });
    return isFinal(job.status) ? job : null;
  },
});
