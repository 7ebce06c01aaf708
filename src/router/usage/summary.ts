import { z } from 'zod';
import { UsageSummary, usageSummary } from '../../domain/usage/usage-summary.ts';
import { sessionProcedure } from '../session-procedure.ts';

export const usageSummaryProcedure = sessionProcedure
  .input(z.object({}).optional())
  .output(UsageSummary)
  .query(({ ctx }) => usageSummary(ctx.deps, ctx.session.accountId, ctx.deps.config.DAILY_FREE_CREDITS));
