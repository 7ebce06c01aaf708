import { failureHeaders, type AnswerContext, type Failure } from '../errors/failure.ts';

export type JsonRpcId = string | number | null;

/**
 * JSON-RPC 2.0 error codes: -32600 for a request we cannot take, -32603 for our fault. Everything else (401, 403, 405,
 * 413, 415, 429, 503...) is ours, so it takes a code outside JSON-RPC's reserved range (-32768 to -32000; MCP
 * 2026-07-28 "Error Codes": -32000 to -32019 are legacy, -32020 to -32099 the specification's): -31000 minus the
 * HTTP status, e.g. -31401, -31429.
 */
export function jsonRpcCode(f: Pick<Failure, 'status'>): number {
  if (f.status === 400) return -32600;
  if (f.status >= 500 && f.status !== 503) return -32603;
  return -31000 - f.status;
}

/**
 * MCP: failures answered at the HTTP level (401, 403, 405, 413, 415, 429, 503) as a JSON-RPC error, keeping the HTTP
 * status; `data` carries the spec's code as tRPC's does. Tool errors are not this: they are `isError` results.
 */
export function mcpErrorResponse(
  f: Failure,
  a: AnswerContext,
  id: JsonRpcId = null,
  extra: Record<string, string> = {},
  code = jsonRpcCode(f),
): Response {
  const data: Record<string, unknown> = { code: f.code, httpStatus: f.status, requestId: a.requestId };
  if (f.retryAfter !== undefined && (f.status === 429 || f.status === 503)) data.retryAfter = f.retryAfter;
  const headers = failureHeaders(f, a);
  headers.set('content-type', 'application/json');
  for (const [k, v] of Object.entries(extra)) headers.set(k, v);
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message: f.message, data }, id }), {
    status: f.status,
    headers,
  });
}
