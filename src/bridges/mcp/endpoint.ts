// POST /mcp enters here. src/bridges/http-app.ts mounts `createMcpEndpoint` at MCP_PATH; one McpEndpoint (below)
// holds what lives across requests (the SDK's modern handler, the library notes, the
// open listen streams). A request flows:
//   1. admission.ts: Origin, method, body, the caller authenticated with its operations counted, batches, and the
//      refusals edges.ts makes before the SDK (protocol version, cursors, params);
//   2. then one of: tasks/* answered by tasks.ts; a single 2025 tools/call answered without an SDK server
//      (direct-call.ts); anything else through the SDK, whose server (buildServer) registers the tools (tools.ts),
//      resources (resources.ts), the prompts (src/router/mcp-prompts.ts) and the MCP App's viewer (app-resource.ts);
//   3. every tool call, resource read and task runs its procedure through one call path (`McpEndpoint.call`): the
//      tRPC caller with the request's context, so auth, credits, limits and errors are the procedure's; a tool's
//      answer becomes its tool result in tool-result.ts;
// What MCP shows of a procedure (tool, text, links, resource template, task behaviour) is its `meta.mcp`; no file
// here names a tool.
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
import { appRouter } from '../../router/index.ts';
import { createCallerFactory } from '../../router/trpc.ts';
import { failure, failureOf, type AnswerContext } from '../errors/failure.ts';
import { ListenStreams, releasedWhenEnded } from './listen-bounds.ts';
import { mcpErrorResponse } from './error-response.ts';
import { admitMcpRequest, type Admitted } from './admission.ts';
import { idOf, withServedVersions, type McpMessage } from './edges.ts';
import { MCP_PROMPTS } from '../../router/mcp-prompts.ts';
import { redactInternalErrors } from './internal-errors.ts';
import { createLibraryNotes, libraryEntries, registerResources, type LibraryNotes } from './resources.ts';
import { MCP_REVISIONS } from './versions.ts';
import { directToolCall, jsonRpcResult } from './direct-call.ts';
import { resourceLinksFor, toolsFor, type ToolDef } from './tools.ts';
import { registerViewer, viewerResource } from './app-resource.ts';
import { answerTaskRequest, asTaskAnswer, declaresTasks, isTaskMethod, TASKS_EXTENSION } from './tasks.ts';
import { errorResult, successResult } from './tool-result.ts';
import { MCP_SCOPE } from '../../domain/oauth/authorization.ts';
import { callByPath } from '../procedures.ts';
import { rateLimitHeaders } from '../response-headers.ts';
import type { Logger } from '../../infra/log/logger.ts';
import { MCP_SERVER_INFO } from './listing.ts';

const createCaller = createCallerFactory(appRouter);

/** One tool call: the tool, the context it runs with, its arguments, and how its answer travels. */
interface ToolCall {
  tool: ToolDef;
  ctx: Context;
  args: unknown;
  /** The request's one message: a stored part is written as its bytes (else it is read as values). */
  single: boolean;
  /** Answered without the SDK (direct-call.ts): a plain read of a stored answer is answered before tRPC. */
  direct?: boolean;
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

/** The tool a single tools/call names. */
function toolCalled(single: McpMessage | undefined): string | undefined {
  // `"arguments": null` means no arguments; the SDK's request schema would refuse it as malformed.
  if (single?.method === 'tools/call' && single.params && single.params.arguments === null)
    delete single.params.arguments;
  return single?.method === 'tools/call' && typeof single.params?.name === 'string' ? single.params.name : undefined;
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

/** What one MCP endpoint keeps across requests, and the one path every request takes through it. */
class McpEndpoint {
  private readonly notes: LibraryNotes = createLibraryNotes();
  private readonly listens = new ListenStreams();
  /** 2026-07-28 traffic (per-request `_meta`, `server/discover`): the SDK's own stateless handler, built once. */
  private readonly modern: ReturnType<typeof createMcpHandler>;
  private closing = false;
  private readonly hooks: ToolCallHooks;

  constructor(log: Logger, hooks: ToolCallHooks) {
    this.hooks = hooks;
    this.modern = withWarningsLogged(log, () =>
      createMcpHandler(({ authInfo }) => this.buildServer(passedBy(authInfo)), {
        legacy: 'reject',
        responseMode: 'json',
        keepAliveMs: 0,
      }),
    );
  }

  /**
   * The one call path of tool calls, resource reads and tasks: the procedure with the caller's context (a plain read
   * answered before tRPC by the hooks when `direct`), what it made noted in the
   * account's resources/list. Throws what the procedure throws.
   */
  private async call(ctx: Context, tool: ToolDef, args: unknown, direct = false): Promise<unknown> {
    const output =
      (direct ? await this.hooks.read(ctx, tool, args) : undefined) ??
      (await callByPath(createCaller(ctx), tool.entry.path, args));
    await this.notes(ctx, ctx.auth!.caller.accountId, libraryEntries(resourceLinksFor(tool, output)));
    return output;
  }

  /** One tool call: its answer (or failure) as a tool result. */
  private async runTool({ tool, ctx, args, single, direct }: ToolCall): Promise<CallToolResult> {
    try {
      const output = await this.call(ctx, tool, args ?? {}, direct);
      // One tool call per request may be answered in a form of its own; in a batch or a task, as values.
      return (single && this.hooks.result(ctx, tool, output)) || successResult(tool, this.hooks.values(output));
    } catch (err) {
      const f = failureOf(err, ctx.requestId);
      return errorResult(f.code, f.message);
    }
  }

  /**
   * One MCP server for one request, its tools calling the router's procedures with the caller's context: limits,
   * credits and validation are the procedures' own, so a tool answers what REST and tRPC answer. Input that fails
   * validation is a tool execution error (`isError`) carrying the spec's error body. A result showing a stored part
   * is recorded for the output step.
   */
  private buildServer(passed: Passed): McpServer {
    const { context: ctx, called, batched } = passed;
    // Each call of a JSON-RPC batch is a request of its own: its charges and errors carry its own id.
    const callCtx = () => (batched ? ownCall(ctx) : ctx);
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
      accountId: ctx.auth!.caller.accountId,
      statics: [viewerResource()],
      // A read renders the values.
      call: async (readCtx, tool, args) => this.hooks.values(await this.call(readCtx, tool, args)),
    });
    for (const { name, config, answer } of MCP_PROMPTS) server.registerPrompt(name, config, answer);
    for (const tool of toolsFor(called)) {
      server.registerTool(tool.name, tool.config, (args: unknown) =>
        this.runTool({ tool, ctx: callCtx(), args, single: called !== undefined }),
      );
    }
    return server;
  }

  /** A Tasks-extension request, answered here: the SDK has no runtime for them. */
  private async answerTasks(ctx: Context, toolCtx: Context, single: McpMessage, limit: Admitted['limit']) {
    // A tool run for a task reads its stored part as values, as inside a batch.
    const body = await answerTaskRequest(single as { method: string }, (tool, args) =>
      this.runTool({ tool, ctx: toolCtx, args, single: false }),
    );
    return Response.json(body, {
      headers: { 'x-request-id': ctx.requestId, ...Object.fromEntries(rateLimitHeaders(limit)) },
    });
  }

  /** A message through the SDK (the shared modern handler, or a per-request server for 2025 revisions). */
  private async throughSdk(
    forward: Request,
    parsed: unknown,
    passed: Passed,
    single: McpMessage | undefined,
    isModern: boolean,
  ): Promise<Response> {
    const { called } = passed;
    let response = isModern
      ? await withServedVersions(
          await this.modern.fetch(forward, { parsedBody: parsed, authInfo: authInfoFor(passed) }),
        )
      : await serveLegacy(forward, parsed, passed, this.buildServer(passed));
    if (isModern && called && declaresTasks(single?.params) && response.ok) {
      const tool = toolsFor(called).find((t) => t.name === called);
      if (tool) response = await asTaskAnswer(response, tool);
    }
    return response;
  }

  /** A `subscriptions/listen` request takes one of its key's and account's places, freed when its stream ends. */
  private async listenBounded(
    ctx: Context,
    single: McpMessage | undefined,
    refusal: { answer: AnswerContext; signal: AbortSignal },
    run: () => Promise<Response>,
  ): Promise<Response> {
    if (single?.method !== 'subscriptions/listen') return run();
    const { MCP_LISTEN_STREAMS_PER_KEY: perKey, MCP_LISTEN_STREAMS_PER_ACCOUNT: perAccount } = ctx.deps.config;
    const place = this.listens.take(ctx.auth!.caller, { perKey, perAccount });
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
  async serve(request: Request, ctx: Context): Promise<Response> {
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
    if (isModern && this.closing)
      return mcpErrorResponse(
        failure('SERVICE_BUSY', 'The service is restarting; retry in a few seconds'),
        answer,
        idOf(single),
      );
    // The Tasks extension is 2026-07-28's: its methods are answered here (the SDK has no runtime for them).
    if (isModern && single && isTaskMethod(single.method)) return this.answerTasks(ctx, toolCtx, single, limit);
    // A single tools/call on a 2025 revision is answered without an SDK server (direct-call.ts); never one declaring
    // the Tasks extension, which is the task machinery's.
    const direct = isModern || declaresTasks(single?.params) ? undefined : directToolCall(forward, single);
    const response = direct
      ? jsonRpcResult(
          direct.id,
          await this.runTool({ tool: direct.tool, ctx: toolCtx, args: direct.arguments, single: true, direct: true }),
        )
      : await this.listenBounded(toolCtx, single, { answer, signal: request.signal }, () =>
          this.throughSdk(forward, parsed, passed, single, isModern),
        );
    // Headers are added to the SDK's own response: wrapping its body in a new Response would turn the JSON text it
    // holds into a stream, piped chunk by chunk.
    for (const [k, v] of rateLimitHeaders(limit)) response.headers.set(k, v);
    response.headers.set('x-request-id', ctx.requestId);
    return response;
  }

  /**
   * Shutdown: every open `subscriptions/listen` stream gets its closing result (the listen request's own result)
   * and ends, so a stopping instance is not held open by its listeners; later 2026-07-28 requests are 503.
   */
  async close(): Promise<void> {
    this.closing = true;
    await this.modern.close();
  }
}

/**
 * What a step in front of the endpoint may do for its tool calls: answer a plain read before tRPC (the direct path),
 * give a single call's output a result of its own, and turn an output into the plain values a batch, a task or a
 * resource read renders. Each may decline (undefined) or pass the output as it is.
 */
export interface ToolCallHooks {
  read(ctx: Context, tool: ToolDef, args: unknown): Promise<unknown>;
  result(ctx: Context, tool: ToolDef, output: unknown): CallToolResult | undefined;
  values(output: unknown): unknown;
}

const NO_HOOKS: ToolCallHooks = { read: async () => undefined, result: () => undefined, values: (o) => o };

/** The MCP endpoint of one app. */
export function createMcpEndpoint(log: Logger, hooks: ToolCallHooks = NO_HOOKS) {
  const endpoint = new McpEndpoint(log, hooks);
  return Object.assign((request: Request, ctx: Context) => endpoint.serve(request, ctx), {
    close: () => endpoint.close(),
  });
}
