import { z } from 'zod';
import { Credits, getCredits } from '../../domain/credits/credits.ts';
import { keyedProcedure } from '../trpc.ts';
import { getCreditsMeta } from './get.meta.ts';

export const getCreditsProcedure = keyedProcedure
  .meta(getCreditsMeta)
  .input(z.object({}))
  .output(Credits)
  .query(({ ctx }) => getCredits(ctx.deps, ctx.caller.accountId, ctx.deps.config.DAILY_FREE_CREDITS));
