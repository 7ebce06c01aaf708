// Sending a job's event to its callbackUrl, retried with exponential backoff for up to a day. Each attempt is
// recorded (visible on the job and on the website); the body is fixed when the job ends, so every attempt (and a
// resend) carries the same bytes, signed afresh with the account's current secret.
import { isServiceError } from '../errors.ts';
import { newId } from '../ids.ts';
import type { EnqueueDelivery, WebhookStore, WebhookTransport } from './ports.ts';
import type { WebhookDelivery, WebhookEvent } from './schemas.ts';
import { ServiceError } from '../errors.ts';

export interface WebhookPorts {
  webhooks: WebhookStore;
  transport: WebhookTransport;
  enqueue: EnqueueDelivery;
  /** First retry delay; each next one doubles, up to MAX_DELAY_MS. */
  retryBaseMs: number;
  /** Stop retrying once the next attempt would be this long after the event (a day). */
  retryWindowMs: number;
  now?: () => Date;
}

const MAX_DELAY_MS = 2 * 60 * 60_000;

/** Delay before attempt `attempt + 1`, after `attempt` failures. */
const backoffMs = (base: number, attempt: number) => Math.min(MAX_DELAY_MS, base * 2 ** Math.max(0, attempt - 1));

/** The event for a finished job: `{ type, timestamp, data }` as Standard Webhooks suggests. */
export function eventBody(event: WebhookEvent, job: unknown, at: Date): string {
  return JSON.stringify({ type: event, timestamp: at.toISOString(), data: job });
}

/** Records the event and queues its first attempt. */
export async function queueWebhook(
  deps: Pick<WebhookPorts, 'webhooks' | 'enqueue' | 'now'>,
  e: { accountId: string; jobId: string; url: string; event: WebhookEvent; job: unknown },
): Promise<string> {
  const now = deps.now?.() ?? new Date();
  const id = await deps.webhooks.create({
    accountId: e.accountId,
    jobId: e.jobId,
    url: e.url,
    event: e.event,
    body: eventBody(e.event, e.job, now),
  });
  await deps.enqueue(id, 1, null);
  return id;
}

/** One attempt of a pending delivery (the webhook queue's handler). Never throws for a receiver's failure. */
export async function deliverWebhook(deps: WebhookPorts, deliveryId: string): Promise<void> {
  const d = await deps.webhooks.get(deliveryId);
  if (d?.status !== 'pending') return;
  const attempt = d.attempts + 1;
  const secret = await deps.webhooks.secretFor(d.accountId);
  const started = Date.now();
  let statusCode: number | null = null;
  let error: string | null = null;
  try {
    statusCode = (await deps.transport.send(d.url, secret, d.id, d.body)).status;
    if (statusCode < 200 || statusCode >= 300) error = `HTTP ${statusCode}`;
  } catch (err) {
    error = isServiceError(err)
      ? err.message
      : err instanceof Error
        ? `${err.name}: ${err.message}`.slice(0, 300)
        : 'unreachable';
  }
  const now = deps.now?.() ?? new Date();
  const record = { attempt, statusCode, error, durationMs: Date.now() - started };
  if (!error) {
    await deps.webhooks.recordAttempt(d.id, record, { status: 'delivered', nextAttemptAt: null });
    return;
  }
  const next = new Date(now.getTime() + backoffMs(deps.retryBaseMs, attempt));
  const giveUp = next.getTime() - d.createdAt.getTime() > deps.retryWindowMs;
  const recorded = await deps.webhooks.recordAttempt(
    d.id,
    record,
    giveUp ? { status: 'failed', nextAttemptAt: null } : { status: 'pending', nextAttemptAt: next },
  );
  if (recorded && !giveUp) await deps.enqueue(d.id, attempt + 1, next);
}

/** Resends are bounded: each one makes us POST (with retries) to a URL the account chose, maybe a third party's. */
export const RESENDS_PER_EVENT_PER_HOUR = 5;
export const RESENDS_PER_ACCOUNT_PER_HOUR = 30;

/** Sends a delivery's event again as a new message (new webhook-id, same body), with its own retries. */
export async function resendWebhook(
  deps: Pick<WebhookPorts, 'webhooks' | 'enqueue'>,
  accountId: string,
  deliveryId: string,
): Promise<WebhookDelivery> {
  const d = await deps.webhooks.get(deliveryId);
  if (!d || d.accountId !== accountId)
    throw new ServiceError('NOT_FOUND', `No webhook delivery ${JSON.stringify(deliveryId)} for this account`);
  const id = await deps.webhooks.createResend(d, {
    perEvent: RESENDS_PER_EVENT_PER_HOUR,
    perAccount: RESENDS_PER_ACCOUNT_PER_HOUR,
    since: new Date(Date.now() - 60 * 60_000),
  });
  if (!id)
    throw new ServiceError(
      'RATE_LIMITED',
      `Resends are limited to ${RESENDS_PER_EVENT_PER_HOUR} per event and ${RESENDS_PER_ACCOUNT_PER_HOUR} per account in an hour; try again later`,
    );
  await deps.enqueue(id, 1, null);
  const [fresh] = (await deps.webhooks.list({ accountId, jobId: d.jobId, limit: 50 })).filter((x) => x.id === id);
  return fresh!;
}

export const newMessageId = () => newId('msg');
