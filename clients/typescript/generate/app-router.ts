// The entry the AppRouter declaration is generated from (npm run clients:generate). Declaration emit prints the
// inferred type of `clientRouter` in full, so the bundled .d.ts carries every procedure's input and output as plain
// types; the server's context and procedure metadata (database, queue, MCP/OpenAPI settings) are replaced by
// `object`, so nothing of the server's own code or dependencies is reachable from it.
import type {
  AnyTRPCRouter,
  TRPCBuiltRouter,
  TRPCMutationProcedure,
  TRPCQueryProcedure,
  TRPCSubscriptionProcedure,
} from '@trpc/server';
import type { appRouter } from '../../../src/router/index.ts';

/** A type spelled out member by member (unions member by member), so that emit prints no name of the server's. */
type Spell<T> = T extends string | number | boolean | bigint | symbol | null | undefined
  ? T
  : { [K in keyof T]: Spell<T[K]> };

type ForClients<P> =
  P extends TRPCQueryProcedure<infer D>
    ? TRPCQueryProcedure<{ input: D['input']; output: D['output']; meta: object }>
    : P extends TRPCMutationProcedure<infer D>
      ? TRPCMutationProcedure<{ input: D['input']; output: D['output']; meta: object }>
      : P extends TRPCSubscriptionProcedure<infer D>
        ? TRPCSubscriptionProcedure<{ input: D['input']; output: D['output']; meta: object }>
        : { [K in keyof P]: ForClients<P[K]> };

// Generic, so that emit cannot reuse these type nodes (which name the server's types) and prints the results instead.
declare function forClients<R extends AnyTRPCRouter>(
  router: R,
): TRPCBuiltRouter<
  {
    ctx: object;
    meta: object;
    errorShape: Spell<R['_def']['_config']['$types']['errorShape']>;
    transformer: R['_def']['_config']['$types']['transformer'];
  },
  { [K in keyof R['_def']['record']]: ForClients<R['_def']['record'][K]> }
>;

declare const server: typeof appRouter;
const clientRouter = forClients(server);

/** The router's type as a client sees it: what `createTRPCClient<AppRouter>` needs, and nothing of the server. */
export type AppRouter = typeof clientRouter;
