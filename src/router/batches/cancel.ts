import { cancelBatch } from '../../domain/batches/cancel-batch.ts';
import { Batch, BatchIdInput } from '../../domain/batches/schemas.ts';
import { batchPorts } from '../../domain/batches/batch-sources.ts';
import { keyedProcedure } from '../trpc.ts';
import { cancelBatchMeta } from './cancel.meta.ts';

export const cancelBatchProcedure = keyedProcedure
  .meta(cancelBatchMeta)
  .input(BatchIdInput)
  .output(Batch)
  .mutation(({ ctx, input }) => cancelBatch(batchPorts(ctx.deps), ctx.caller.accountId, input.id));
