import { z } from 'zod';
import { deleteSession } from '../../domain/accounts/sessions.ts';
import { clearSessionCookie } from '../session-cookie.ts';
import { sessionProcedure } from '../session-procedure.ts';

export const signOutProcedure = sessionProcedure
  .input(z.object({}).optional())
  .output(z.object({ signedOut: z.literal(true) }))
  .mutation(async ({ ctx }) => {
    await deleteSession(ctx.deps, ctx.sessionToken);
    clearSessionCookie(ctx);
    return { signedOut: true as const };
  });
