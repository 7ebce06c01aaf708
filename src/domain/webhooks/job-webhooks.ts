// callbackUrl on translations and articles: the request registers a waiting delivery for its job; when the job
// ends (the worker finishing the queued work, or the request itself when the answer was immediate), the delivery is
// armed with the event and sent. Arming moves waiting -> pending once, so whoever notices first sends it, once.
import type { Caller } from '../keys/caller.ts';
import { eventBody, type WebhookPorts } from './deliver-webhook.ts';

export interface JobWebhookPorts extends Pick<WebhookPorts, 'webhooks' | 'enqueue' | 'now'> {
  /** The job resource as GET /jobs/{id} shows it (with its result), or null while it is still running. */
  finishedJob: (caller: Caller, jobId: string) => Promise<{ status: string } | null>;
}

export async function registerJobWebhook(
  deps: JobWebhookPorts,
  caller: Caller,
  jobId: string,
  url: string,
): Promise<void> {
  await deps.webhooks.register({ accountId: caller.accountId, jobId, url });
  await armEndedJobWebhooks(deps);
}

/** Arms and queues every waiting delivery whose job has ended (for one job key, or all). */
export async function armEndedJobWebhooks(deps: JobWebhookPorts, jobKey?: string): Promise<void> {
  for (const d of await deps.webhooks.waitingForEndedJobs(jobKey)) {
    // One delivery whose job cannot be read (gone, or not its account's) must not hold up every other callback.
    const job = await deps
      .finishedJob({ accountId: d.accountId, keyId: 'webhook', rateLimit: null }, d.jobId)
      .catch(() => null);
    if (!job) continue;
    const event = job.status === 'succeeded' ? 'job.completed' : 'job.failed';
    if (await deps.webhooks.arm(d.id, event, eventBody(event, job, deps.now?.() ?? new Date())))
      await deps.enqueue(d.id, 1, null);
  }
}
