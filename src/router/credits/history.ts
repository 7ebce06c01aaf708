import { CreditHistory, CreditHistoryInput, creditHistory } from '../../domain/credits/credit-history.ts';
import { keyedProcedure } from '../trpc.ts';
import { creditHistoryMeta } from './history.meta.ts';

export const creditHistoryProcedure = keyedProcedure
  .meta(creditHistoryMeta)
  .input(CreditHistoryInput)
  .output(CreditHistory)
  .query(({ ctx, input }) => creditHistory(ctx.deps, ctx.caller.accountId, input));
