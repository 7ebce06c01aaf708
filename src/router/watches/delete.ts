import { deleteWatch } from '../../domain/watches/manage-watches.ts';
import { DeletedWatch, WatchIdInput } from '../../domain/watches/schemas.ts';
import { keyedProcedure } from '../trpc.ts';
import { deleteWatchMeta } from './delete.meta.ts';

export const deleteWatchProcedure = keyedProcedure
  .meta(deleteWatchMeta)
  .input(WatchIdInput)
  .output(DeletedWatch)
  .mutation(({ ctx, input }) => deleteWatch(ctx.deps, ctx.caller.accountId, input.id));
