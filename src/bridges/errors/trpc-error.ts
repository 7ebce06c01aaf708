import { TRPCError } from '@trpc/server';
import { getErrorShape } from '@trpc/server/unstable-core-do-not-import';
import { ServiceError } from '../../domain/errors.ts';
import { ERROR_TABLE } from '../../router/error-table.ts';
import { appRouter } from '../../router/index.ts';
import { failureHeaders, type AnswerContext, type Failure } from './failure.ts';

/**
 * tRPC: what the HTTP layer answers before a procedure runs (wrong method, oversize body), in the shape tRPC
 * clients parse, made by the router's own error formatter so it matches what procedures answer.
 */
export function trpcErrorResponse(f: Failure, a: AnswerContext, extra: Record<string, string> = {}): Response {
  const error = new TRPCError({
    code: ERROR_TABLE[f.code].trpc,
    message: f.message,
    cause: new ServiceError(f.code, f.message, f.retryAfter),
  });
  const shape = getErrorShape({
    config: appRouter._def._config,
    error,
    type: 'unknown',
    path: undefined,
    input: undefined,
    // The error formatter reads only ctx.requestId; outside a procedure there is no full Context to give it.
    ctx: { requestId: a.requestId } as never,
  });
  const headers = failureHeaders(f, a);
  headers.set('content-type', 'application/json');
  for (const [k, v] of Object.entries(extra)) headers.set(k, v);
  return new Response(JSON.stringify({ error: shape }), { status: f.status, headers });
}
