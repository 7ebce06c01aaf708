import { createTRPCClient, httpLink, TRPCClientError, type TRPCClient } from '@trpc/client';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from './generated/app-router.js';
import { authorization, endpoint, type SubtextClientOptions } from './options.js';

export type { AppRouter };
export { TRPCClientError };
/** Every procedure's input, by path: `RouterInputs['subtitles']['get']`. */
export type RouterInputs = inferRouterInputs<AppRouter>;
/** Every procedure's output, by path: `RouterOutputs['credits']['get']`. */
export type RouterOutputs = inferRouterOutputs<AppRouter>;

/**
 * A typed tRPC client for the service at `url`. One HTTP request per call (no batching): the service answers a
 * single call with stored transcripts as they are. Failures are `TRPCClientError`s whose `data.code` is the
 * service's error code (`INSUFFICIENT_CREDITS`, `VIDEO_NOT_FOUND`...).
 */
export function createSubtextClient(options: SubtextClientOptions): TRPCClient<AppRouter> {
  return createTRPCClient<AppRouter>({
    links: [httpLink({ url: endpoint(options.url, '/trpc'), headers: authorization(options), fetch: options.fetch })],
  });
}

/** Whether a tRPC call failed with the service's answer; then `error.data?.code` is its error code, typed. */
export function isSubtextError(error: unknown): error is TRPCClientError<AppRouter> {
  return error instanceof TRPCClientError;
}
