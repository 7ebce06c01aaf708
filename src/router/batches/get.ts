import { getBatch } from '../../domain/batches/get-batch.ts';
import { Batch, BatchIdInput } from '../../domain/batches/schemas.ts';
import { batchPorts } from '../../domain/batches/batch-sources.ts';
import { keyedProcedure } from '../trpc.ts';
import { getBatchMeta } from './get.meta.ts';

export const getBatchProcedure = keyedProcedure
  .meta(getBatchMeta)
  .input(BatchIdInput)
  .output(Batch)
  .query(({ ctx, input }) => getBatch(batchPorts(ctx.deps), ctx.caller.accountId, input.id));
