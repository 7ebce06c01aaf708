import {
  createMcpHandler,
  isLegacyRequest,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type CallToolResult,
} from '@modelcontextprotocol/server';
import { isServiceError } from '../domain/errors.ts';
import { resourceMetadataUrl } from './oauth/oauth-routes.ts';
import { authenticateRequest, rateLimited } from '../router/authenticate-request.ts';
import type { Context } from '../router/context.ts';
import { errorBody } from '../router/error-table.ts';
import { appRouter } from '../router/index.ts';
import { createCallerFactory } from '../router/trpc.ts';
import { failure, failureOf } from './errors/failure.ts';
import { mcpErrorResponse, type JsonRpcId } from './errors/mcp-error.ts';
import { parseStored, STORED, storedPartOf, withValueAt, type StoredPart } from '../domain/stored-json.ts';
import { createStoredToolTexts, type StoredToolTexts } from './mcp-stored-results.ts';
import { writeStored } from './stored-output.ts';
import { directToolCall, jsonRpcResult } from './mcp-direct-call.ts';
import { toolsFor, type ToolDef } from './mcp-tools.ts';
import { originAllowed } from './mcp-origin.ts';
import { callByPath } from './procedures.ts';
import { rateLimitHeaders } from './response-headers.ts';

export const MCP_PATH = '/mcp';
export const MCP_SERVER_INFO = { name: 'subtext', version: '1.0.0' };

const createCaller = createCallerFactory(appRouter);

/** The only revision whose clients may send JSON-RPC batches (2025-06-18 removed them). */
const BATCH_REVISION = '2025-03-26';

function errorResult(code: Parameters<typeof errorBody>[0], message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(errorBody(code, message)) }] };
}

function resultText(def: ToolDef, output: unknown): string {
  const mcp = def.entry.meta.mcp!;
  return mcp.text
    ? mcp.text(output)
    : mcp.summarize
      ? `${mcp.summarize(output)}\n\n${JSON.stringify(output)}`
      : JSON.stringify(output);
}

function successResult(def: ToolDef, output: unknown, texts: StoredToolTexts, stored?: Stored): CallToolResult {
  const mcp = def.entry.meta.mcp!;
  const part = storedPartOf(output);
  if (part) {
    // A page of a stored answer: its text rendered once from the page's values; structuredContent keeps the
    // placeholder, which the output step fills with the stored text.
    const { text, json } = texts.text(def.name, output, part, () =>
      resultText(def, withValueAt(output as object, part.path, parseStored(part))),
    );
    if (stored) stored.text = json;
    // The SDK checks the result's shape: it sees no symbol key.
    const { [STORED]: _part, ...structured } = output as Record<PropertyKey, unknown>;
    return { content: [{ type: 'text', text }], structuredContent: structured };
  }
  if (mcp.image) {
    const img = mcp.image(output);
    return {
      content: [
        { type: 'image', data: img.base64, mimeType: img.mimeType },
        { type: 'text', text: img.caption },
      ],
    };
  }
  return {
    content: [{ type: 'text', text: resultText(def, output) }],
    structuredContent: output as Record<string, unknown>,
  };
}

/** The stored part a request's tool result carries (and its text as JSON), for the output step. */
type Stored = { part: StoredPart; text?: StoredPart };
type StoredParts = WeakMap<Context, Stored>;

/**
 * One MCP server for one request, its tools calling the router's procedures with the caller's context: limits,
 * credits and validation are the procedures' own, so a tool answers what REST and tRPC answer. Input that fails
 * validation is a tool execution error (`isError`) carrying the spec's error body. A result showing a stored part
 * is recorded in `parts` for the output step.
 */
function buildServer(ctx: Context, texts: StoredToolTexts, parts: StoredParts, called: string | undefined): McpServer {
  const server = new McpServer(MCP_SERVER_INFO, { capabilities: { tools: {} } });
  for (const def of toolsFor(called)) {
    server.registerTool(def.name, def.config, (args: unknown) => runTool(def, ctx, args, texts, parts, called));
  }
  return server;
}

/** One tool call: the procedure with the caller's context, its answer (or failure) as a tool result. */
async function runTool(
  def: ToolDef,
  ctx: Context,
  args: unknown,
  texts: StoredToolTexts,
  parts: StoredParts,
  called: string | undefined,
): Promise<CallToolResult> {
  try {
    let output = await callByPath(createCaller(ctx), def.entry.path, args ?? {});
    const part = storedPartOf(output);
    // One tool call per request: the output step writes its stored part. In a batch (one context for several
    // calls) the part is read as values instead.
    const stored = part && called !== undefined ? { part } : undefined;
    if (stored) parts.set(ctx, stored);
    else if (part) {
      const { [STORED]: _part, ...rest } = output as Record<PropertyKey, unknown>;
      output = withValueAt(rest, part.path, parseStored(part));
    }
    return successResult(def, output, texts, stored);
  } catch (err) {
    const f = failureOf(err, ctx.requestId);
    return errorResult(f.code, f.message);
  }
}

/**
 * The context of the request being served, and the tool it calls if any, travel to the per-request server as the
 * SDK's pass-through authInfo.
 */
type Passed = { context: Context; called: string | undefined };
const passedBy = (auth: AuthInfo | undefined) => auth?.extra as Passed;
const authInfoFor = (passed: Passed): AuthInfo => ({
  token: 'caller',
  clientId: passed.context.auth!.caller.accountId,
  scopes: [],
  extra: passed,
});

/** 2025 traffic: a stateless streamable HTTP transport per request, answering JSON (never an SSE stream). */
async function serveLegacy(
  request: Request,
  parsedBody: unknown,
  passed: Passed,
  server: McpServer,
): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody, authInfo: authInfoFor(passed) });
  } finally {
    // Stateless: nothing outlives the request.
    void server.close().catch(() => {});
  }
}

type Message = { id?: JsonRpcId; method?: string; params?: { name?: unknown; arguments?: unknown } };

/** The MCP endpoint of one app, keeping the text of stored pages' results within `textBytes`. */
export function createMcpEndpoint(textBytes: number) {
  const texts = createStoredToolTexts(textBytes);
  const parts: StoredParts = new WeakMap();
  /** 2026-07-28 traffic (per-request `_meta`, `server/discover`): the SDK's own stateless handler, built once. */
  const modern = createMcpHandler(
    ({ authInfo }) => {
      const { context, called } = passedBy(authInfo);
      return buildServer(context, texts, parts, called);
    },
    { legacy: 'reject', responseMode: 'json', keepAliveMs: 0 },
  );

  /**
   * POST /mcp: streamable HTTP, stateless, revisions 2025-06-18, 2025-11-25 and 2026-07-28 on one endpoint (the
   * SDK tells them apart by the per-request `_meta` envelope). Refused before the SDK, as JSON-RPC errors with the
   * HTTP status kept: a foreign Origin (403, DNS rebinding), GET/DELETE (405: no server-initiated stream, no
   * sessions), a bad key (401 with the Bearer challenge), batches (400 on revisions that removed them).
   */
  return async function handleMcp(request: Request, ctx: Context): Promise<Response> {
    // RFC 9728 5.1: a 401 names our resource metadata, from which an OAuth client finds where to sign the user in.
    const answer = {
      requestId: ctx.requestId,
      requestHeaders: request.headers,
      challenge: { resource_metadata: resourceMetadataUrl(ctx.deps) },
    };
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

    const text = await request.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined; // the SDK answers -32700
    }
    const refusedBatch = Array.isArray(parsed) && request.headers.get('mcp-protocol-version') !== BATCH_REVISION;
    const messages = (Array.isArray(parsed) ? parsed : [parsed]) as (Message | null | undefined)[];
    // The rate limit counts tool calls, not protocol traffic (initialize, tools/list, ping): they are counted with
    // the caller's lookup, in the one statement every surface uses, and each tool's procedure spends one.
    const toolCalls = refusedBatch ? 0 : messages.filter((m) => m?.method === 'tools/call').length;
    let auth;
    try {
      auth = await authenticateRequest(ctx, toolCalls);
    } catch (err) {
      if (isServiceError(err)) return mcpErrorResponse(failureOf(err, ctx.requestId), answer);
      throw err;
    }
    if (refusedBatch) {
      return mcpErrorResponse(
        failure(
          'INVALID_REQUEST',
          'JSON-RPC batches are not part of MCP since revision 2025-06-18; send one message per request',
        ),
        answer,
      );
    }
    const limit = auth.rateLimit ?? undefined;
    const single = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Message) : undefined;
    if (limit && !limit.allowed && single?.method === 'tools/call') {
      // A rate-limited tool call is an HTTP 429 with Retry-After, so clients back off instead of reading a result.
      return mcpErrorResponse(
        failureOf(rateLimited(limit), ctx.requestId),
        { ...answer, rateLimit: limit },
        single.id ?? null,
      );
    }
    const toolCtx: Context = { ...ctx, auth };

    // `"arguments": null` means no arguments; the SDK's request schema would refuse it as malformed.
    if (single?.method === 'tools/call' && single.params && single.params.arguments === null)
      delete single.params.arguments;
    const called =
      single?.method === 'tools/call' && typeof single.params?.name === 'string' ? single.params.name : undefined;
    const passed: Passed = { context: toolCtx, called };

    // The SDK is handed the parsed body (the request's own has been read); a body that is not JSON is handed over
    // again as text, for the SDK's -32700 answer.
    const forward =
      parsed === undefined
        ? new Request(request.url, { method: 'POST', headers: request.headers, body: text, signal: request.signal })
        : request;
    const legacy = parsed === undefined || (await isLegacyRequest(forward, parsed));
    const direct = legacy ? directToolCall(request, single) : undefined;
    let response: Response;
    if (direct) {
      const result = await runTool(direct.tool, toolCtx, direct.arguments, texts, parts, called);
      response = jsonRpcResult(direct.id, result, parts.get(toolCtx));
    } else {
      response = legacy
        ? await serveLegacy(forward, parsed, passed, buildServer(toolCtx, texts, parts, called))
        : await modern.fetch(forward, { parsedBody: parsed, authInfo: authInfoFor(passed) });
    }

    const stored = direct ? undefined : parts.get(toolCtx);
    if (stored && response.ok) {
      const text = await response.text();
      // The SDK may have answered an error instead (no placeholder then): sent as it is.
      const body = text.includes('"result"') ? writeStored(text, [stored.part]) : text;
      response = new Response(body, { status: response.status, headers: response.headers });
    }
    // Headers are added to the SDK's own response: wrapping its body in a new Response would turn the JSON text it
    // holds into a stream, piped chunk by chunk.
    for (const [k, v] of rateLimitHeaders(limit)) response.headers.set(k, v);
    response.headers.set('x-request-id', ctx.requestId);
    return response;
  };
}
