import { z } from 'zod';

export const CallbackUrl = z
  .string()
  .trim()
  .max(2048)
  .optional()
  .describe(
    'Optional https URL that receives a signed POST (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature) when the job ends; must resolve to public addresses',
  );

export const WebhookEvent = z.enum(['job.completed', 'job.failed', 'watch.video_published', 'watch.transcript_ready']);
export type WebhookEvent = z.infer<typeof WebhookEvent>;

const WebhookAttempt = z.object({
  attempt: z.number().int(),
  at: z.string().describe('ISO 8601'),
  statusCode: z
    .number()
    .int()
    .nullable()
    .describe('HTTP status the receiver answered; null when it could not be reached'),
  error: z.string().nullable(),
  durationMs: z.number().int(),
});

export const WebhookDelivery = z.object({
  id: z.string().describe('msg_...: the webhook-id header'),
  jobId: z.string(),
  event: WebhookEvent,
  url: z.string(),
  status: z
    .enum(['waiting', 'pending', 'delivered', 'failed'])
    .describe(
      'waiting: the job has not ended yet; pending: sending, retrying with backoff; delivered: a 2xx answer; failed: gave up after a day',
    ),
  attempts: z.array(WebhookAttempt),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;
