import {
  createMcpHandler,
  isLegacyRequest,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type CallToolResult,
} from '@modelcontextprotocol/server';
import { resourceMetadataUrl } from '../oauth/oauth-routes.ts';
import { ownCall, type Context } from '../../router/context.ts';
import { errorBody } from '../../router/error-table.ts';
import { appRouter } from '../../router/index.ts';
import { createCallerFactory } from '../../router/trpc.ts';
import { failure, failureOf, type AnswerContext } from '../errors/failure.ts';
import { ListenStreams, releasedWhenEnded } from './listen-bounds.ts';
import { mcpErrorResponse } from './error-response.ts';
import { admitMcpRequest, type Admitted } from './admission.ts';
import { idOf, withServedVersions, type McpMessage } from './edges.ts';
import { registerPrompts } from '../../router/mcp-prompts.ts';
import { redactInternalErrors } from './internal-errors.ts';
import {
  createLibraryNotes,
  libraryEntries,
  registerResources,
  resourceLinksFor,
  type LibraryNotes,
} from './resources.ts';
import { MCP_REVISIONS } from './versions.ts';
import { parseStored, readStored, STORED, storedPartOf, withValueAt, type StoredPart } from '../../domain/stored-json.ts';
import { createStoredToolTexts, type StoredToolTexts } from './stored-results.ts';
import { writeStored } from '../stored-output.ts';
import type { StoredPages } from '../stored-pages.ts';
import { directToolCall, jsonRpcResult } from './direct-call.ts';
import { mcpTools, toolsFor, type ToolDef } from './tools.ts';
import { registerViewer, VIEWER_RESOURCE } from './app-resource.ts';
import { answerTaskRequest, asCreatedTask, declaresTasks, isTaskMethod, TASKS_EXTENSION } from './tasks.ts';
import { MCP_SCOPE } from '../../domain/oauth/authorization.ts';
import { callByPath } from '../procedures.ts';
import { rateLimitHeaders } from '../response-headers.ts';
import type { Logger } from '../../infra/log/logger.ts';

export const MCP_PATH = '/mcp';
const MCP_SERVER_INFO = { name: 'subtext', version: '1.0.0' };

const createCaller = createCallerFactory(appRouter);

function errorResult(code: Parameters<typeof errorBody>[0], message: string): CallToolResult {
  // Keys in the order the SDK's result schema writes them (the direct path answers the same text).
  return { content: [{ type: 'text', text: JSON.stringify(errorBody(code, message)) }], isError: true };
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
  const links = resourceLinksFor(def.name, output);
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
    return { content: [{ type: 'text', text }, ...links], structuredContent: structured };
  }
  if (mcp.image) {
    const img = mcp.image(output);
    return {
      content: [
        { type: 'image', data: img.base64, mimeType: img.mimeType },
        { type: 'text', text: img.caption },
        ...links,
      ],
    };
  }
  return {
    content: [{ type: 'text', text: resultText(def, output) }, ...links],
    structuredContent: output as Record<string, unknown>,
  };
}

const toolNamed = (name: string): ToolDef => mcpTools().find((t) => t.name === name)!;

/** The stored part a request's tool result carries (and its text as JSON), for the output step. */
type Stored = { part: StoredPart; text?: StoredPart };
type StoredParts = WeakMap<Context, Stored>;

/**
 * One MCP server for one request, its tools calling the router's procedures with the caller's context: limits,
 * credits and validation are the procedures' own, so a tool answers what REST and tRPC answer. Input that fails
 * validation is a tool execution error (`isError`) carrying the spec's error body. A result showing a stored part
 * is recorded in `parts` for the output step.
 */
function buildServer(passed: Passed, texts: StoredToolTexts, parts: StoredParts, notes: LibraryNotes): McpServer {
  const { context: ctx, called, batched } = passed;
  // Each call of a JSON-RPC batch is a request of its own: its charges and errors carry its own id.
  const callCtx = () => (batched ? ownCall(ctx) : ctx);
  const accountId = ctx.auth!.caller.accountId;
  const server = new McpServer(MCP_SERVER_INFO, {
    capabilities: { tools: {}, resources: {}, prompts: {}, extensions: { [TASKS_EXTENSION]: {} } },
    supportedProtocolVersions: [...MCP_REVISIONS],
  });
  redactInternalErrors(server, ctx);
  // The SDK's server/discover lists only its modern revisions; /mcp names every revision it serves, everywhere.
  const discover = server.server as unknown as { _ondiscover(): { supportedVersions: string[] } };
  const ondiscover = discover._ondiscover.bind(discover);
  discover._ondiscover = () => ({ ...ondiscover(), supportedVersions: [...MCP_REVISIONS] });
  registerViewer(server);
  registerResources(server, {
    ctx,
    readContext: callCtx,
    accountId,
    statics: [VIEWER_RESOURCE],
    // A read renders the values: a stored part is parsed into place.
    call: async (readCtx, tool, args) =>
      readStored(await callByPath(createCaller(readCtx), toolNamed(tool).entry.path, args)),
    text: (tool, output) => resultText(toolNamed(tool), output),
    note: notes,
  });
  registerPrompts(server);
  for (const def of toolsFor(called)) {
    server.registerTool(def.name, def.config, (args: unknown) =>
      runTool(def, callCtx(), args, texts, parts, notes, called),
    );
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
  notes: LibraryNotes,
  called: string | undefined,
  pages?: StoredPages,
): Promise<CallToolResult> {
  try {
    // A stored read (a stored transcript's page) is answered without tRPC (src/bridges/stored-pages.ts).
    let output =
      (called !== undefined ? await pages?.call(ctx, def.entry.path, args ?? {}) : undefined) ??
      (await callByPath(createCaller(ctx), def.entry.path, args ?? {}));
    await notes(ctx, ctx.auth!.caller.accountId, libraryEntries(resourceLinksFor(def.name, output)));
    const part = storedPartOf(output);
    // One tool call per request: the output step writes its stored part. In a batch (one context for several
    // calls) the part is read as values instead.
    const stored = part && called !== undefined ? { part } : undefined;
    if (stored) parts.set(ctx, stored);
    else if (part) output = readStored(output);
    return successResult(def, output, texts, stored);
  } catch (err) {
    const f = failureOf(err, ctx.requestId);
    return errorResult(f.code, f.message);
  }
}

/** The tool called by name, as tools/call would run it (tasks/get reads jobs and batches this way). */
function runToolNamed(
  ctx: Context,
  texts: StoredToolTexts,
  parts: StoredParts,
  notes: LibraryNotes,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const def = toolsFor(name).find((t) => t.name === name);
  if (!def) return Promise.resolve(errorResult('INTERNAL_ERROR', `No tool ${name}`));
  // No `called`: a stored part is read as values, as inside a batch.
  return runTool(def, ctx, args, texts, parts, notes, undefined);
}

/**
 * The context of the request being served, and the tool it calls if any, travel to the per-request server as the
 * SDK's pass-through authInfo.
 */
type Passed = { context: Context; called: string | undefined; batched: boolean };
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

/** The SDK's answer with the stored part written in (the output step); an error answer is sent as it is. */
async function withStoredPart(response: Response, part: StoredPart) {
  const text = await response.text();
  const body = text.includes('"result"') ? writeStored(text, [part]) : text;
  return new Response(body, { status: response.status, headers: response.headers });
}

/** What one MCP endpoint keeps across requests. */
type Endpoint = {
  texts: StoredToolTexts;
  parts: StoredParts;
  notes: LibraryNotes;
  modern: ReturnType<typeof createMcpHandler>;
  closing: boolean;
  pages?: StoredPages;
  listens: ListenStreams;
};

/** The tool a single tools/call names. */
function toolCalled(single: McpMessage | undefined): string | undefined {
  // `"arguments": null` means no arguments; the SDK's request schema would refuse it as malformed.
  if (single?.method === 'tools/call' && single.params && single.params.arguments === null)
    delete single.params.arguments;
  return single?.method === 'tools/call' && typeof single.params?.name === 'string' ? single.params.name : undefined;
}

/** A Tasks-extension request, answered here: the SDK has no runtime for them. */
async function answerTasks(ep: Endpoint, ctx: Context, toolCtx: Context, single: McpMessage, limit: Admitted['limit']) {
  const body = await answerTaskRequest(single as { method: string }, (name, args) =>
    runToolNamed(toolCtx, ep.texts, ep.parts, ep.notes, name, args),
  );
  return Response.json(body, {
    headers: { 'x-request-id': ctx.requestId, ...Object.fromEntries(rateLimitHeaders(limit)) },
  });
}

/** A message through the SDK (the shared modern handler, or a per-request server for 2025 revisions). */
async function throughSdk(
  ep: Endpoint,
  forward: Request,
  parsed: unknown,
  passed: Passed,
  single: McpMessage | undefined,
  isModern: boolean,
): Promise<Response> {
  const { context: toolCtx, called } = passed;
  let response = isModern
    ? await withServedVersions(await ep.modern.fetch(forward, { parsedBody: parsed, authInfo: authInfoFor(passed) }))
    : await serveLegacy(forward, parsed, passed, buildServer(passed, ep.texts, ep.parts, ep.notes));
  if (isModern && called && declaresTasks(single?.params) && response.ok) response = await asTaskAnswer(response);
  const stored = ep.parts.get(toolCtx);
  if (stored && response.ok) response = await withStoredPart(response, stored.part);
  return response;
}

/** A `subscriptions/listen` request takes one of its key's and account's places, freed when its stream ends. */
async function listenBounded(
  ep: Endpoint,
  ctx: Context,
  single: McpMessage | undefined,
  refusal: { answer: AnswerContext; signal: AbortSignal },
  run: () => Promise<Response>,
): Promise<Response> {
  if (single?.method !== 'subscriptions/listen') return run();
  const { MCP_LISTEN_STREAMS_PER_KEY: perKey, MCP_LISTEN_STREAMS_PER_ACCOUNT: perAccount } = ctx.deps.config;
  const place = ep.listens.take(ctx.auth!.caller, { perKey, perAccount });
  if (typeof place !== 'function')
    return mcpErrorResponse(failure('RATE_LIMITED', place.refused), refusal.answer, idOf(single));
  try {
    return releasedWhenEnded(await run(), place, refusal.signal);
  } catch (err) {
    place();
    throw err;
  }
}

/**
 * POST /mcp: streamable HTTP, stateless, revisions 2025-06-18, 2025-11-25 and 2026-07-28 on one endpoint (the
 * SDK tells them apart by the per-request `_meta` envelope). Refused before the SDK, as JSON-RPC errors with the
 * HTTP status kept: a foreign Origin (403, DNS rebinding), GET/DELETE (405: no server-initiated stream, no
 * sessions), a bad key (401 with the Bearer challenge), batches (400 on revisions that removed them).
 */
async function serveMcp(ep: Endpoint, request: Request, ctx: Context): Promise<Response> {
  // RFC 9728 5.1: a 401 names our resource metadata, from which an OAuth client finds where to sign the user in.
  const answer = {
    requestId: ctx.requestId,
    requestHeaders: request.headers,
    // The scope a token needs (RFC 6750 3, MCP authorization "Scope Selection Strategy").
    challenge: { resource_metadata: resourceMetadataUrl(ctx.deps), scope: MCP_SCOPE },
  };
  const admitted = await admitMcpRequest(request, ctx, answer);
  if (admitted instanceof Response) return admitted;
  const { text, parsed, single, auth, limit } = admitted;
  const toolCtx: Context = { ...ctx, auth };
  const called = toolCalled(single);
  const passed: Passed = { context: toolCtx, called, batched: Array.isArray(parsed) };

  // The SDK is handed the parsed body (the request's own has been read); a body that is not JSON is handed over
  // again as text, for the SDK's -32700 answer.
  const forward =
    parsed === undefined
      ? new Request(request.url, { method: 'POST', headers: request.headers, body: text, signal: request.signal })
      : request;
  const isModern = parsed !== undefined && !(await isLegacyRequest(forward, parsed));
  if (isModern && ep.closing)
    return mcpErrorResponse(
      failure('SERVICE_BUSY', 'The service is restarting; retry in a few seconds'),
      answer,
      idOf(single),
    );
  // The Tasks extension is 2026-07-28's: its methods are answered here (the SDK has no runtime for them).
  if (isModern && single && isTaskMethod(single.method)) return answerTasks(ep, ctx, toolCtx, single, limit);
  // A single tools/call on a 2025 revision is answered without an SDK server (src/bridges/mcp/direct-call.ts);
  // never one declaring the Tasks extension, which is the task machinery's.
  const direct = isModern || declaresTasks(single?.params) ? undefined : directToolCall(forward, single);
  const response = direct
    ? jsonRpcResult(
        direct.id,
        await runTool(direct.tool, toolCtx, direct.arguments, ep.texts, ep.parts, ep.notes, called, ep.pages),
        ep.parts.get(toolCtx),
      )
    : await listenBounded(ep, toolCtx, single, { answer, signal: request.signal }, () =>
        throughSdk(ep, forward, parsed, passed, single, isModern),
      );
  // Headers are added to the SDK's own response: wrapping its body in a new Response would turn the JSON text it
  // holds into a stream, piped chunk by chunk.
  for (const [k, v] of rateLimitHeaders(limit)) response.headers.set(k, v);
  response.headers.set('x-request-id', ctx.requestId);
  return response;
}

/**
 * Builds with the SDK's console warnings sent to our log: it warns, once per handler, that `responseMode: 'json'`
 * drops notifications sent before a result, which is why we chose it (every answer is one JSON document; listen
 * streams stay SSE). A plain line among the JSON log lines would break a collector reading them.
 */
function withWarningsLogged<T>(log: Logger, build: () => T): T {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => log.debug({ source: 'mcp-sdk' }, args.map(String).join(' '));
  try {
    return build();
  } finally {
    console.warn = warn;
  }
}

/** The MCP endpoint of one app, keeping the text of stored pages' results within `textBytes`. */
export function createMcpEndpoint(log: Logger, textBytes: number, pages?: StoredPages) {
  const texts = createStoredToolTexts(textBytes);
  const parts: StoredParts = new WeakMap();
  const notes = createLibraryNotes();
  /** 2026-07-28 traffic (per-request `_meta`, `server/discover`): the SDK's own stateless handler, built once. */
  const modern = withWarningsLogged(log, () =>
    createMcpHandler(({ authInfo }) => buildServer(passedBy(authInfo), texts, parts, notes), {
      legacy: 'reject',
      responseMode: 'json',
      keepAliveMs: 0,
    }),
  );
  const endpoint: Endpoint = { texts, parts, notes, modern, closing: false, pages, listens: new ListenStreams() };
  async function handleMcp(request: Request, ctx: Context): Promise<Response> {
    return serveMcp(endpoint, request, ctx);
  }

  return Object.assign(handleMcp, {
    /**
     * Shutdown: every open `subscriptions/listen` stream gets its closing result (the listen request's own result)
     * and ends, so a stopping instance is not held open by its listeners; later 2026-07-28 requests are 503.
     */
    async close(): Promise<void> {
      endpoint.closing = true;
      await modern.close();
    },
  });
}

/** A tools/call answer that started long work, turned into a CreateTaskResult (the client declared the extension). */
async function asTaskAnswer(response: Response): Promise<Response> {
  const text = await response.text();
  let body: { result?: CallToolResult } | undefined;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const created = body?.result ? asCreatedTask(body.result) : null;
  return new Response(created ? JSON.stringify({ ...body, result: created }) : text, {
    status: response.status,
    headers: response.headers,
  });
}
