import { z } from 'zod';
import { sessionProcedure } from '../session-procedure.ts';

const Connection = z.object({
  id: z.string(),
  clientId: z.string(),
  clientName: z.string(),
  scope: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  status: z.enum(['active', 'revoked', 'expired']),
});

/** Applications the account allowed through OAuth (MCP clients), listed beside its API keys. */
export const listConnectionsProcedure = sessionProcedure
  .input(z.object({}).optional())
  .output(z.array(Connection))
  .query(({ ctx }) => ctx.deps.oauth.store.listGrants(ctx.session.accountId));
