import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { getTRPCErrorFromUnknown } from '@trpc/server';
import { z } from 'zod';
import { isServiceError } from '../domain/errors.ts';
import { authenticateApiKey } from '../domain/keys/manage-keys.ts';
import { readApiKey } from '../domain/keys/api-key.ts';
import type { Context } from '../router/context.ts';
import { errorBody, ERROR_TABLE } from '../router/error-table.ts';
import { appRouter } from '../router/index.ts';
import { codeOf, createCallerFactory } from '../router/trpc.ts';
import { callByPath, listProcedures, type ProcedureEntry } from './procedures.ts';
import { rateLimitHeaders } from './response-headers.ts';

const createCaller = createCallerFactory(appRouter);

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * tools/call as the SDK would parse it, except that `arguments` may be anything: the SDK's own schema wants a record,
 * and its parse failure came back as JSON-RPC -32603 "Internal error" carrying zod's issue list. Arguments that are
 * not an object (an array, a string, 20,000 nested arrays) are set aside here, unexamined, and answered below as a
 * tool error with INVALID_REQUEST, like any other invalid input.
 */
const LenientCallToolRequest = z.looseObject({
  method: z.literal('tools/call'),
  params: z.looseObject({ name: z.string(), arguments: z.unknown().optional() }).transform((p) => {
    if (p.arguments === undefined || p.arguments === null || isPlainObject(p.arguments)) return p;
    const kind = Array.isArray(p.arguments) ? 'an array' : typeof p.arguments === 'string' ? 'a string' : `a ${typeof p.arguments}`;
    return { ...p, arguments: undefined, invalidArguments: kind };
  }),
});

interface ToolDef {
  tool: Tool;
  entry: ProcedureEntry;
}

function jsonSchema(schema: unknown, io: 'input' | 'output'): Tool['inputSchema'] {
  const js = z.toJSONSchema(schema as z.ZodType, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete js.$schema;
  return { type: 'object', ...js } as Tool['inputSchema'];
}

/** Every procedure marked `meta.mcp` becomes a tool with the same input and output schemas. */
function buildTools(): ToolDef[] {
  return listProcedures(appRouter)
    .filter((e) => e.meta.mcp)
    .map((entry) => {
      const mcp = entry.meta.mcp!;
      const def = entry.procedure._def as unknown as { inputs: unknown[]; output?: unknown };
      const tool: Tool = {
        name: mcp.name,
        description: mcp.description,
        inputSchema: jsonSchema(def.inputs[0] ?? z.object({}), 'input'),
        annotations: {
          readOnlyHint: mcp.readOnly ?? false,
          idempotentHint: mcp.idempotent ?? false,
          openWorldHint: mcp.openWorld ?? false,
          destructiveHint: false,
        },
      };
      if (def.output && !mcp.image) tool.outputSchema = jsonSchema(def.output, 'output') as Tool['outputSchema'];
      return { tool, entry };
    });
}

let tools: ToolDef[] | undefined;
export const mcpTools = () => (tools ??= buildTools());

function errorResult(code: keyof typeof ERROR_TABLE, message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(errorBody(code, message)) }] };
}

function successResult(def: ToolDef, output: unknown): CallToolResult {
  const mcp = def.entry.meta.mcp!;
  if (mcp.image) {
    const img = mcp.image(output);
    return { content: [{ type: 'image', data: img.base64, mimeType: img.mimeType }, { type: 'text', text: img.caption }] };
  }
  const text = mcp.text
    ? mcp.text(output)
    : mcp.summarize
      ? `${mcp.summarize(output)}\n\n${JSON.stringify(output)}`
      : JSON.stringify(output);
  return { content: [{ type: 'text', text }], structuredContent: output as Record<string, unknown> };
}

/**
 * Stateless streamable HTTP: a fresh server and transport per request. The key is checked
 * before the transport (401 in the spec's shape); tool calls then run through the same
 * procedures as REST, so limits, credits and errors are identical.
 */
export async function handleMcp(request: Request, ctx: Context): Promise<Response> {
  let caller;
  try {
    caller = await authenticateApiKey(ctx.deps, readApiKey(request.headers));
  } catch (err) {
    if (isServiceError(err)) {
      return Response.json(errorBody(err.code, err.message), { status: ERROR_TABLE[err.code].status });
    }
    throw err;
  }
  ctx.deps.lastUsed.touch(caller.keyId);
  const toolCtx: Context = { ...ctx, caller };

  const server = new Server({ name: 'subtext', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: mcpTools().map((t) => t.tool) }));
  server.setRequestHandler(LenientCallToolRequest as unknown as typeof CallToolRequestSchema, async (req): Promise<CallToolResult> => {
    const def = mcpTools().find((t) => t.tool.name === req.params.name);
    if (!def) return errorResult('INVALID_REQUEST', `Unknown tool ${JSON.stringify(req.params.name)}`);
    const invalid = (req.params as { invalidArguments?: string }).invalidArguments;
    if (invalid) return errorResult('INVALID_REQUEST', `Tool arguments must be a JSON object, not ${invalid}`);
    try {
      const output = await callByPath(createCaller(toolCtx), def.entry.path, req.params.arguments ?? {});
      return successResult(def, output);
    } catch (err) {
      const { code, message } = codeOf(getTRPCErrorFromUnknown(err));
      return errorResult(code, code === 'INTERNAL_ERROR' ? `Internal error (request ${ctx.requestId})` : message);
    }
  });

  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    const response = await transport.handleRequest(request);
    const headers = new Headers(response.headers);
    for (const [k, v] of rateLimitHeaders(toolCtx.out.rateLimit)) headers.set(k, v);
    headers.set('x-request-id', ctx.requestId);
    return new Response(response.body, { status: response.status, headers });
  } finally {
    // Stateless: nothing outlives the request.
    void server.close().catch(() => {});
  }
}
