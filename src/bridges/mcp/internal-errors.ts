// The SDK answers whatever a request handler throws as -32603 with the error's own message: a PostgreSQL error, say,
// would reach the caller word for word. Every handler a per-request server registers (ours and McpServer's own) is
// wrapped so that an error that is not a protocol error is logged in full and answered with a generic message.
import { INTERNAL_ERROR, type McpServer, ProtocolError } from '@modelcontextprotocol/server';
import type { Context } from '../../router/context.ts';
import { internalMessage } from '../errors/failure.ts';

type Handler = (...args: never[]) => unknown;

/** Registers every later request handler of `server` behind the redaction; call before registering any. */
export function redactInternalErrors(server: McpServer, ctx: Context): void {
  const inner = server.server;
  const register = inner.setRequestHandler.bind(inner) as (...args: unknown[]) => void;
  const guard =
    (method: unknown, fn: Handler) =>
    async (...args: never[]) => {
      try {
        return await fn(...args);
      } catch (err) {
        if (err instanceof ProtocolError) throw err;
        ctx.log.error({ err, method }, 'unhandled error');
        throw new ProtocolError(INTERNAL_ERROR, internalMessage(ctx.requestId), {
          code: 'INTERNAL_ERROR',
          httpStatus: 500,
          requestId: ctx.requestId,
        });
      }
    };
  (inner as { setRequestHandler: unknown }).setRequestHandler = (method: unknown, ...rest: unknown[]) =>
    register(method, ...rest.map((a) => (typeof a === 'function' ? guard(method, a as Handler) : a)));
}
