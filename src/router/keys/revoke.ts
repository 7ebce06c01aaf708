import { z } from 'zod';
import { ServiceError } from '../../domain/errors.ts';
import { revokeApiKey } from '../../domain/keys/manage-keys.ts';
import { sessionProcedure } from '../session-procedure.ts';

/** Effective on the very next request: keys are checked against the database on every call. */
export const revokeKeyProcedure = sessionProcedure
  .input(z.object({ id: z.string().trim().min(1).max(64) }))
  .output(z.object({ revoked: z.literal(true) }))
  .mutation(async ({ ctx, input }) => {
    // Another account's key id reads as unknown: ids are not secrets, but ownership is not disclosed either.
    if (!(await revokeApiKey(ctx.deps, ctx.session.accountId, input.id))) {
      throw new ServiceError('NOT_FOUND', 'No such key on your account');
    }
    return { revoked: true as const };
  });
