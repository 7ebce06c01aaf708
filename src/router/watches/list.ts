import { listWatches } from '../../domain/watches/manage-watches.ts';
import { EmptyInput, WatchList } from '../../domain/watches/schemas.ts';
import { keyedProcedure } from '../trpc.ts';
import { listWatchesMeta } from './list.meta.ts';

export const listWatchesProcedure = keyedProcedure
  .meta(listWatchesMeta)
  .input(EmptyInput)
  .output(WatchList)
  .query(({ ctx }) => listWatches(ctx.deps, ctx.caller.accountId));
