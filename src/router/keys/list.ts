import { z } from 'zod';
import { listApiKeys } from '../../domain/keys/manage-keys.ts';
import { sessionProcedure } from '../session-procedure.ts';

const KeyListing = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  status: z.enum(['active', 'revoked', 'expired']),
});

export const listKeysProcedure = sessionProcedure
  .input(z.object({}).optional())
  .output(z.array(KeyListing))
  .query(async ({ ctx }) => {
    // Last-used times are batched in memory; write them first so the list shows this minute's use.
    await ctx.deps.lastUsed.flush();
    return listApiKeys(ctx.deps, ctx.session.accountId);
  });
