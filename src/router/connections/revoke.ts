import { z } from 'zod';
import { ServiceError } from '../../domain/errors.ts';
import { sessionProcedure } from '../session-procedure.ts';

/** Effective on the application's next request: its access token and refresh token both stop working. */
export const revokeConnectionProcedure = sessionProcedure
  .input(z.object({ id: z.string().trim().min(1).max(64) }))
  .output(z.object({ revoked: z.literal(true) }))
  .mutation(async ({ ctx, input }) => {
    if (!(await ctx.deps.oauth.store.revokeGrant(input.id, ctx.session.accountId))) {
      throw new ServiceError('NOT_FOUND', 'No such connection on your account');
    }
    return { revoked: true as const };
  });
