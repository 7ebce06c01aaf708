import { createWatch } from '../../domain/watches/manage-watches.ts';
import { CreateWatchInput, WatchWithHistory } from '../../domain/watches/schemas.ts';
import { keyedProcedure } from '../trpc.ts';
import { createWatchMeta } from './create.meta.ts';
import { watchPorts } from './watch-ports.ts';

export const createWatchProcedure = keyedProcedure
  .meta(createWatchMeta)
  .input(CreateWatchInput)
  .output(WatchWithHistory)
  .mutation(({ ctx, input }) => createWatch(watchPorts(ctx.deps), ctx.caller.accountId, input));
