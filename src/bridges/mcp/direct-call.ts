// A single tools/call on the 2025 revisions, answered without building an SDK server and transport for it (most of
// an MCP call's cost). Only a request the SDK's stateless JSON transport would take as it is comes this way: the
// same header checks, a well-formed JSON-RPC request naming one of our tools, nothing the SDK would act on besides
// (task-augmented calls, unknown fields; src/bridges/mcp/endpoint.ts keeps calls declaring the Tasks extension from here).
// The tool runs as the SDK server runs it, and the response is written as the SDK writes it:
// `{"result":...,"jsonrpc":"2.0","id":...}`, application/json. Anything else goes to the SDK.
// test/contract/mcp-conformance.test.ts holds both paths to the conformance suite on every revision.
import {
  type CallToolResult,
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  isJsonContentType,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/server';
import { toolsFor, type ToolDef } from './tools.ts';
import { jsonResponse } from '../json-response.ts';

const MESSAGE_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const PARAMS_KEYS = new Set(['name', 'arguments', '_meta']);

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const onlyKeys = (o: Record<string, unknown>, allowed: Set<string>) => Object.keys(o).every((k) => allowed.has(k));

export interface DirectCall {
  id: string | number;
  tool: ToolDef;
  arguments: Record<string, unknown> | undefined;
}

/** The call to answer directly, or undefined when the SDK must answer the request. */
export function directToolCall(request: Request, message: unknown): DirectCall | undefined {
  const accept = request.headers.get('accept');
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
  if (!isJsonContentType(request.headers.get('content-type'))) return undefined;
  const version = request.headers.get('mcp-protocol-version') ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
  if (!SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return undefined;
  if (!isPlainObject(message) || !onlyKeys(message, MESSAGE_KEYS)) return undefined;
  const { jsonrpc, id, method, params } = message;
  if (jsonrpc !== '2.0' || method !== 'tools/call') return undefined;
  if (typeof id !== 'string' && !(typeof id === 'number' && Number.isSafeInteger(id))) return undefined;
  if (!isPlainObject(params) || !onlyKeys(params, PARAMS_KEYS)) return undefined;
  if (params._meta !== undefined && !isPlainObject(params._meta)) return undefined;
  const args = params.arguments;
  if (args !== undefined && !isPlainObject(args)) return undefined;
  const tools = typeof params.name === 'string' ? toolsFor(params.name) : [];
  if (tools.length !== 1 || tools[0]!.name !== params.name) return undefined; // unknown: the SDK's -32602
  return { id, tool: tools[0]!, arguments: args };
}

/** The JSON-RPC response carrying a tool result, as the SDK's JSON transport writes it (keys in its order). */
export function jsonRpcResult(id: string | number, result: CallToolResult): Response {
  return jsonResponse(JSON.stringify({ result, jsonrpc: '2.0', id }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
}
