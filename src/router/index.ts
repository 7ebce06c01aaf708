import { getCreditsProcedure } from './credits/get.ts';
import { router } from './trpc.ts';

/** The single source of procedures: REST, tRPC and MCP are projections of this router. */
export const appRouter = router({
  credits: router({ get: getCreditsProcedure }),
});

export type AppRouter = typeof appRouter;
