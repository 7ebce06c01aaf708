import { checkCallbackUrl } from '../domain/webhooks/callback-url.ts';
import { registerJobWebhook } from '../domain/webhooks/job-webhooks.ts';
import { jobWebhookPorts } from '../domain/batches/batch-sources.ts';
import type { AuthedContext } from './context.ts';

/**
 * callbackUrl on work that may answer with a job (translations and articles always, transcripts when speech-to-text
 * runs): checked before any work starts (400 for a URL that is not allowed), registered for the job once the answer
 * has one, sent when the job ends. An answer without a job (a stored transcript) registers nothing.
 */
export async function withCallback<T extends object>(
  ctx: AuthedContext,
  callbackUrl: string | undefined,
  run: () => Promise<T>,
): Promise<T> {
  const url = await checkCallbackUrl(ctx.deps.webhookTransport, callbackUrl, ctx.deps.config.WEBHOOK_ALLOW_HTTP);
  const out = await run();
  const job = jobOf(out);
  if (url && job) await registerJobWebhook(jobWebhookPorts(ctx.deps), ctx.caller, job.id, url);
  return out;
}

// A transcript's answer is a union whose stored branch has no `job` at all, so the type cannot require one.
const jobOf = (out: object): { id: string } | null => ('job' in out && out.job ? (out.job as { id: string }) : null);
