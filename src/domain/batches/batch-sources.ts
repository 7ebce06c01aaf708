// The narrow ports the batch and webhook verbs use, taken from what the composition hands a procedure or a worker.
import type { LookupAdmission } from '../admission/lookup-admission.ts';
import type { BatchStore } from './ports.ts';
import { getJob } from '../jobs/get-job.ts';
import type { LlmJobPorts } from '../jobs/llm-jobs.ts';
import { isFinal } from '../jobs/schemas.ts';
import type { WebhookPorts } from '../webhooks/deliver-webhook.ts';
import type { WebhookStore, WebhookTransport } from '../webhooks/ports.ts';
import type { JobWebhookPorts } from '../webhooks/job-webhooks.ts';

/** Webhooks are retried for a day. */
const WEBHOOK_RETRY_WINDOW_MS = 24 * 60 * 60_000;

export interface BatchSources extends LlmJobPorts {
  batches: BatchStore;
  lookupAdmission: Pick<LookupAdmission, 'countUnpaid'>;
  webhooks: WebhookStore;
  webhookTransport: WebhookTransport;
  config: { WEBHOOK_RETRY_BASE_MS: number; DAILY_FREE_CREDITS: number };
}

export const webhookPorts = (d: BatchSources): WebhookPorts => ({
  webhooks: d.webhooks,
  transport: d.webhookTransport,
  enqueue: (id, attempt, at) => d.workQueue.webhook(id, attempt, at),
  retryBaseMs: d.config.WEBHOOK_RETRY_BASE_MS,
  retryWindowMs: WEBHOOK_RETRY_WINDOW_MS,
});

export const batchPorts = (d: BatchSources) => ({
  batches: d.batches,
  lookupAdmission: d.lookupAdmission,
  listingCharges: { ledger: d.ledger, dailyAllowance: d.config.DAILY_FREE_CREDITS },
  webhooks: d.webhooks,
  enqueue: webhookPorts(d).enqueue,
  enqueueItems: (batchId: string, positions: number[]) => d.workQueue.batchItems(batchId, positions),
});

export const jobWebhookPorts = (d: BatchSources): JobWebhookPorts => ({
  webhooks: d.webhooks,
  enqueue: webhookPorts(d).enqueue,
  finishedJob: async (caller, id) => {
    const job = await getJob(d, caller, { id });
    return isFinal(job.status) ? job : null;
  },
});
