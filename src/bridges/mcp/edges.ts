// Answers /mcp gives before the SDK sees a message, where the SDK's own would break a MUST of the revision served:
// an unsupported MCP-Protocol-Version (its 2025 transport answers -32000 with "id": null), a cursor on a list that
// has one page only (its handlers ignore it and answer the whole list), params of the wrong type (its handlers
// answer -32603 with the validator's dump).
import type { JsonRpcId } from './error-response.ts';
import { INVALID_PARAMS, isServedRevision, MCP_REVISIONS, UNSUPPORTED_VERSION } from './versions.ts';

const PROTOCOL_VERSION_META = 'io.modelcontextprotocol/protocolVersion';

export type McpMessage = {
  id?: JsonRpcId;
  method?: string;
  params?: { name?: unknown; arguments?: unknown; cursor?: unknown; uri?: unknown; _meta?: Record<string, unknown> };
};

/** The id an answer to this message echoes: its own when it is one JSON-RPC allows, else null. */
export const idOf = (message: McpMessage | undefined): JsonRpcId =>
  typeof message?.id === 'string' || typeof message?.id === 'number' ? message.id : null;

function jsonRpcError(status: number, message: McpMessage | undefined, code: number, text: string, data?: unknown) {
  const error = { code, message: text, ...(data === undefined ? {} : { data }) };
  return new Response(JSON.stringify({ jsonrpc: '2.0', id: idOf(message), error }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/**
 * MCP 2026-07-28 (transports, "Protocol Version Header"; versioning): a version the server does not implement is 400
 * with UnsupportedProtocolVersion (-32022) listing the versions it does. Here: a request without `_meta` (2025-era
 * traffic) whose `MCP-Protocol-Version` header names one.
 */
export function unsupportedVersion(headers: Headers, message: McpMessage | undefined): Response | undefined {
  // A request with `_meta` is the SDK's to judge: a header that disagrees with it is a HeaderMismatch (-32020), and
  // its -32022 answers get the full list from withServedVersions.
  if (message?.params?._meta?.[PROTOCOL_VERSION_META] !== undefined) return undefined;
  const requested = headers.get('mcp-protocol-version');
  if (requested === null || isServedRevision(requested)) return undefined;
  return jsonRpcError(400, message, UNSUPPORTED_VERSION, 'Unsupported protocol version', {
    supported: [...MCP_REVISIONS],
    requested,
  });
}

/** Lists served whole, in one page: any cursor is one we never gave, so invalid params (-32602). */
const ONE_PAGE_LISTS = new Set(['tools/list', 'prompts/list', 'resources/templates/list']);

export function inventedCursor(message: McpMessage | undefined): Response | undefined {
  if (!message?.method || !ONE_PAGE_LISTS.has(message.method) || message.params?.cursor === undefined) return undefined;
  return jsonRpcError(
    200,
    message,
    INVALID_PARAMS,
    `Invalid cursor: ${message.method} is answered in one page, so there is no next page to ask for`,
  );
}

/**
 * The SDK's own -32022 answers (a `_meta` naming a 2025 revision, say) list only its modern revisions: rewritten
 * with the one list /mcp serves.
 */
export async function withServedVersions(response: Response): Promise<Response> {
  if (response.status !== 400 || !response.headers.get('content-type')?.includes('application/json')) return response;
  const text = await response.text();
  let body: { error?: { code?: number; data?: { supported?: unknown } } } | undefined;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (body?.error?.code !== UNSUPPORTED_VERSION) return new Response(text, response);
  body.error.data = { ...body.error.data, supported: [...MCP_REVISIONS] };
  return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
}

/** The params whose type the SDK checks only as it calls a handler, where a mismatch is an internal error. */
const STRING_PARAMS: Record<string, { required?: 'uri' | 'name'; optional?: 'cursor' }> = {
  'resources/read': { required: 'uri' },
  'prompts/get': { required: 'name' },
  'resources/list': { optional: 'cursor' },
  'resources/templates/list': { optional: 'cursor' },
  'prompts/list': { optional: 'cursor' },
  'tools/list': { optional: 'cursor' },
};

/** Params of the wrong type on those methods: invalid params (-32602), as the SDK answers them for tools/call. */
export function malformedParams(message: McpMessage | undefined): Response | undefined {
  const rule = message?.method ? STRING_PARAMS[message.method] : undefined;
  if (!rule) return undefined;
  const p = message?.params ?? {};
  const bad = (why: string) => jsonRpcError(200, message, INVALID_PARAMS, `Invalid ${message?.method} request: ${why}`);
  if (rule.required && typeof p[rule.required] !== 'string') return bad(`params.${rule.required} must be a string`);
  if (rule.optional && p[rule.optional] !== undefined && typeof p[rule.optional] !== 'string')
    return bad(`params.${rule.optional} must be a string`);
  const args = p.arguments;
  if (
    message?.method === 'prompts/get' &&
    args !== undefined &&
    (typeof args !== 'object' ||
      args === null ||
      Array.isArray(args) ||
      Object.values(args).some((v) => typeof v !== 'string'))
  )
    return bad('params.arguments must be an object of strings');
  return undefined;
}
