import { z } from 'zod';
import { Credits, getCredits } from '../../domain/credits/credits.ts';
import { keyedProcedure } from '../trpc.ts';

export const getCreditsProcedure = keyedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/credits',
      tags: ['credits'],
      summary: 'Credits balance',
      description: 'The caller’s spendable balance, the daily free allowance and when it resets. Free.',
    },
    mcp: {
      name: 'get_credits',
      description:
        'Your Subtext credits: spendable balance, the free daily allowance left today, purchased credits and when the allowance resets. Free to call.',
      readOnly: true,
      idempotent: true,
    },
  })
  .input(z.object({}))
  .output(Credits)
  .query(({ ctx }) => getCredits(ctx.deps, ctx.caller.accountId, ctx.deps.config.DAILY_FREE_CREDITS));
