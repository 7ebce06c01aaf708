import { isServiceError } from '../../domain/errors.ts';
import type { Authenticated } from '../../domain/keys/authenticate.ts';
import { authenticateRequest, rateLimited } from '../../router/authenticate-request.ts';
import type { Context } from '../../router/context.ts';
import { failure, failureOf, type AnswerContext } from '../errors/failure.ts';
import { mcpErrorResponse } from './error-response.ts';
import { idOf, inventedCursor, malformedParams, unsupportedVersion, type McpMessage } from './edges.ts';
import { originAllowed } from './origin.ts';
import { MAX_BATCH_CALLS } from '../batch-size.ts';
import { requestText } from '../unicode-edge.ts';

/** The only revision whose clients may send JSON-RPC batches (2025-06-18 removed them). */
const BATCH_REVISION = '2025-03-26';

/** The messages that run an operation, each counted against the rate limit. */
// tasks/* read a job or batch as the tools that read them do (`meta.mcp.task`).
const CALLS = new Set(['tools/call', 'resources/read', 'tasks/get', 'tasks/update', 'tasks/cancel']);

/** A request let through to the SDK: its body (as text and parsed), its one message if not a batch, its caller. */
export type Admitted = {
  text: string;
  parsed: unknown;
  single: McpMessage | undefined;
  auth: Authenticated;
  limit: NonNullable<Authenticated['rateLimit']> | undefined;
};

/** Refused before the body is read: a foreign Origin (403, DNS rebinding), a method other than POST (405). */
function refusedUnread(request: Request, ctx: Context, answer: AnswerContext): Response | undefined {
  if (!originAllowed(request.headers.get('origin'), ctx.deps)) {
    return mcpErrorResponse(
      failure(
        'FORBIDDEN',
        'Origin not allowed: browsers may call /mcp only from this service’s own origin or the configured MCP_ALLOWED_ORIGINS',
      ),
      answer,
    );
  }
  if (request.method !== 'POST') {
    return mcpErrorResponse(
      failure(
        'METHOD_NOT_ALLOWED',
        'The MCP endpoint is stateless: POST only (no server-initiated stream, no sessions to delete)',
      ),
      answer,
      null,
      { allow: 'POST' },
    );
  }
  return undefined;
}

/** The body as text and parsed; undefined when it is not JSON (the SDK answers -32700). */
async function readBody(request: Request): Promise<{ text: string; parsed: unknown }> {
  const text = await requestText(request);
  try {
    return { text, parsed: JSON.parse(text) };
  } catch {
    return { text, parsed: undefined };
  }
}

/** The caller, with `toolCalls` counted against its limit; a refused key is answered naming the request's id. */
async function authenticateCalls(
  ctx: Context,
  toolCalls: number,
  answer: AnswerContext,
  single: McpMessage | undefined,
): Promise<Authenticated | Response> {
  try {
    return await authenticateRequest(ctx, toolCalls);
  } catch (err) {
    // The body was read: the answer names the request it refuses.
    if (isServiceError(err)) return mcpErrorResponse(failureOf(err, ctx.requestId), answer, idOf(single));
    throw err;
  }
}

/** Why a JSON-RPC batch is refused whole, before anything in it is counted; undefined for one that is served. */
function batchRefusal(parsed: unknown, headers: Headers): string | undefined {
  if (!Array.isArray(parsed)) return undefined;
  if (headers.get('mcp-protocol-version') !== BATCH_REVISION)
    return 'JSON-RPC batches are not part of MCP since revision 2025-06-18; send one message per request';
  // The SDK refuses these too, but only after they were counted here.
  if (parsed.length > MAX_BATCH_CALLS) return `A JSON-RPC batch carries at most ${MAX_BATCH_CALLS} messages`;
  return undefined;
}

/**
 * Reads and checks one POST /mcp before the SDK sees it: Origin and method, the caller's key, batches (400 on
 * revisions that removed them), the protocol version and params, and the rate limit on operations.
 */
export async function admitMcpRequest(
  request: Request,
  ctx: Context,
  answer: AnswerContext,
): Promise<Admitted | Response> {
  const early = refusedUnread(request, ctx, answer);
  if (early) return early;

  const { text, parsed } = await readBody(request);
  const refusedBatch = batchRefusal(parsed, request.headers);
  const messages = (Array.isArray(parsed) ? parsed : [parsed]) as (McpMessage | null | undefined)[];
  const single = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as McpMessage) : undefined;
  // The rate limit counts operations (tool calls, resource reads), not protocol traffic (initialize, lists, ping):
  // they are counted with the caller's lookup, in the one statement every surface uses, and each procedure call
  // spends one.
  const toolCalls = refusedBatch ? 0 : messages.filter((m) => m?.method && CALLS.has(m.method)).length;
  const auth = await authenticateCalls(ctx, toolCalls, answer, single);
  if (auth instanceof Response) return auth;
  if (refusedBatch) return mcpErrorResponse(failure('INVALID_REQUEST', refusedBatch), answer);
  const refusal = unsupportedVersion(request.headers, single) ?? inventedCursor(single) ?? malformedParams(single);
  if (refusal) {
    refusal.headers.set('x-request-id', ctx.requestId);
    return refusal;
  }
  const limit = auth.rateLimit ?? undefined;
  if (limit && !limit.allowed && single?.method && CALLS.has(single.method)) {
    // A rate-limited call is an HTTP 429 with Retry-After, so clients back off instead of reading a result.
    return mcpErrorResponse(
      failureOf(rateLimited(limit), ctx.requestId),
      { ...answer, rateLimit: limit },
      idOf(single),
    );
  }
  return { text, parsed, single, auth, limit };
}
