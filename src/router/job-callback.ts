import { checkCallbackUrl } from '../domain/webhooks/callback-url.ts';
import { registerJobWebhook } from '../domain/webhooks/job-webhooks.ts';
import { jobWebhookPorts } from '../domain/batches/batch-sources.ts';
import type { AuthedContext } from './context.ts';

/**
 * callbackUrl on work that answers with a job (translations, summaries): checked before any work starts (400 for
 * a URL that is not allowed), registered for the job once the request has one; sent when the job ends.
 */
export async function withCallback<T extends { job: { id: string } }>(
  ctx: AuthedContext,
  callbackUrl: string | undefined,
  run: () => Promise<T>,
): Promise<T> {
  const url = await checkCallbackUrl(ctx.deps.webhookTransport, callbackUrl, ctx.deps.config.WEBHOOK_ALLOW_HTTP);
  const out = await run();
  if (url) await registerJobWebhook(jobWebhookPorts(ctx.deps), ctx.caller, out.job.id, url);
  return out;
}

/** withCallback for work that answers with a job only sometimes (speech-to-text): registered when there is one. */
export async function withJobCallback<T extends object>(
  ctx: AuthedContext,
  callbackUrl: string | undefined,
  run: () => Promise<T>,
): Promise<T> {
  const url = await checkCallbackUrl(ctx.deps.webhookTransport, callbackUrl, ctx.deps.config.WEBHOOK_ALLOW_HTTP);
  const out = await run();
  const job = 'job' in out ? (out.job as { id: string }) : null;
  if (url && job) await registerJobWebhook(jobWebhookPorts(ctx.deps), ctx.caller, job.id, url);
  return out;
}
