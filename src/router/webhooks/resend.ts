import { z } from 'zod';
import { resendWebhook } from '../../domain/webhooks/deliver-webhook.ts';
import { WebhookDelivery } from '../../domain/webhooks/schemas.ts';
import { batchPorts } from '../../domain/batches/batch-sources.ts';
import { sessionProcedure } from '../session-procedure.ts';

/** Sends a past event again (a new delivery with the same body), from the website. */
export const resendWebhookProcedure = sessionProcedure
  .input(z.object({ id: z.string().trim().min(1).max(64) }))
  .output(WebhookDelivery)
  .mutation(({ ctx, input }) => resendWebhook(batchPorts(ctx.deps), ctx.session.accountId, input.id));
