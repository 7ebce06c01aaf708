import { getWatch } from '../../domain/watches/manage-watches.ts';
import { WatchIdInput, WatchWithHistory } from '../../domain/watches/schemas.ts';
import { keyedProcedure } from '../trpc.ts';
import { getWatchMeta } from './get.meta.ts';

export const getWatchProcedure = keyedProcedure
  .meta(getWatchMeta)
  .input(WatchIdInput)
  .output(WatchWithHistory)
  .query(({ ctx, input }) => getWatch(ctx.deps, ctx.caller.accountId, input.id));
