import { cancelBatch } from '../../domain/batches/cancel-batch.ts';
import { Batch, BatchIdInput } from '../../domain/batches/schemas.ts';
import { batchPorts } from '../../domain/batches/batch-sources.ts';
import { keyedProcedure } from '../trpc.ts';
import { batchText } from '../mcp-text/batches.ts';

export const cancelBatchProcedure = keyedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/batches/{id}/cancel',
      tags: ['batches'],
      summary: 'Cancel a batch',
      description:
        'Videos not started yet are cancelled and never charged; videos already running finish (and are charged if they succeed). The batch ends as cancelled once nothing runs. Cancelling again changes nothing. Free.',
    },
    mcp: {
      name: 'cancel_batch',
      description:
        'Stop a batch started with create_batch: videos not started are cancelled (free); running ones finish. Arg: id (bat_...).',
      idempotent: true,
      text: batchText,
    },
    errors: ['JOB_NOT_FOUND'],
  })
  .input(BatchIdInput)
  .output(Batch)
  .mutation(({ ctx, input }) => cancelBatch(batchPorts(ctx.deps), ctx.caller.accountId, input.id));
