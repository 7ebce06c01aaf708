import { z } from 'zod';
import { WebhookDelivery } from '../../domain/webhooks/schemas.ts';
import { sessionProcedure } from '../session-procedure.ts';

const WebhookSettings = z.object({
  secret: z.string().describe('whsec_...: verify webhook-signature with it (Standard Webhooks)'),
  deliveries: z.array(WebhookDelivery),
});

/** The website's webhooks page: the signing secret and the latest deliveries with their attempts. */
export const webhookSettingsProcedure = sessionProcedure
  .input(z.object({}).optional())
  .output(WebhookSettings)
  .query(async ({ ctx }) => ({
    secret: await ctx.deps.webhooks.secretFor(ctx.session.accountId),
    deliveries: await ctx.deps.webhooks.list({ accountId: ctx.session.accountId, limit: 20 }),
  }));

export const rotateWebhookSecretProcedure = sessionProcedure
  .input(z.object({}).optional())
  .output(z.object({ secret: z.string() }))
  .mutation(async ({ ctx }) => ({ secret: await ctx.deps.webhooks.rotateSecret(ctx.session.accountId) }));
