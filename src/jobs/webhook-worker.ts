import type { Deps } from '../deps.ts';
import { deliverWebhook } from '../domain/webhooks/deliver-webhook.ts';
import { WebhookPayload } from './payloads.ts';
import { webhookPorts } from '../domain/batches/batch-sources.ts';

/** The webhook queue's handler: one attempt; the next one (if any) is queued with its backoff by the domain. */
export function webhookHandler(deps: Deps) {
  const d = webhookPorts(deps);
  return (data: unknown) => deliverWebhook(d, WebhookPayload.parse(data).deliveryId);
}
