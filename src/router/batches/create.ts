import { callerRequest } from '../context.ts';
import { createBatch } from '../../domain/batches/create-batch.ts';
import { Batch, CreateBatchInput } from '../../domain/batches/schemas.ts';
import { keyedProcedure } from '../trpc.ts';
import { createBatchPorts } from './batch-ports.ts';
import { createBatchMeta } from './create.meta.ts';

export const createBatchProcedure = keyedProcedure
  .meta(createBatchMeta)
  .input(CreateBatchInput)
  .output(Batch)
  .mutation(async ({ ctx, input }) => {
    const batch = await createBatch(createBatchPorts(ctx.deps), callerRequest(ctx), input);
    // Async work created: REST answers 202 with where to follow it; tRPC and MCP return the same batch.
    ctx.out.status = 202;
    ctx.out.location = `/api/v1/batches/${batch.id}`;
    return batch;
  });
