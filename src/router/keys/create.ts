import { z } from 'zod';
import { createApiKey } from '../../domain/keys/manage-keys.ts';
import { sessionProcedure } from '../session-procedure.ts';

const CreateKeyInput = z.object({
  name: z.string().trim().min(1, 'give the key a name').max(100),
  expiresAt: z.iso.datetime({ offset: true }).optional().describe('ISO 8601; omitted: never expires'),
});

/** The plaintext key is in this answer only; the service keeps its hash. */
export const createKeyProcedure = sessionProcedure
  .input(CreateKeyInput)
  .output(
    z.object({
      id: z.string(),
      key: z.string(),
      prefix: z.string(),
      name: z.string(),
      expiresAt: z.string().nullable(),
    }),
  )
  .mutation(async ({ ctx, input }) => {
    const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
    const k = await createApiKey(ctx.deps, { accountId: ctx.session.accountId, name: input.name, expiresAt });
    return { ...k, name: input.name, expiresAt: expiresAt?.toISOString() ?? null };
  });
