import { z } from 'zod';
import { WebhookDelivery } from '../../domain/webhooks/schemas.ts';
import { getJob, GetJobInput, JobWithResult } from '../../domain/jobs/get-job.ts';
import { keyedProcedure } from '../trpc.ts';
import { getJobMeta } from './get.meta.ts';

export const getJobProcedure = keyedProcedure
  .meta(getJobMeta)
  .input(GetJobInput)
  .output(
    JobWithResult.extend({
      webhooks: z
        .array(WebhookDelivery)
        .describe('Deliveries to the callbackUrl given with the request, each attempt recorded'),
    }),
  )
  .query(async ({ ctx, input }) => ({
    ...(await getJob(ctx.deps, ctx.caller, input)),
    webhooks: await ctx.deps.webhooks.list({ accountId: ctx.caller.accountId, jobId: input.id, limit: 20 }),
  }));
