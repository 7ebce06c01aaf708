import { z } from 'zod';
import { publicProcedure } from '../trpc.ts';

/** What the sign-up page should offer: a form, a form with an invite code, or the news that sign-up is closed. */
export const signUpModeProcedure = publicProcedure
  .input(z.object({}).optional())
  .output(z.object({ mode: z.enum(['open', 'closed', 'invite']) }))
  .query(({ ctx }) => ({ mode: ctx.deps.config.SIGN_UP }));
