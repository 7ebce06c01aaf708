// The table of surfaces a stored answer is written on, one row each: which requests it takes (by path), whether its
// answer can be written (a streamed tRPC batch cannot: its calls are written one by one as they end), whether
// written answers are kept (never on MCP: each carries its JSON-RPC id), and, for the plain reads answered before
// the framework (step.ts), the request read as a call and the answer in the framework's own envelope and headers.
// MCP's row besides renders the text content of a tool result showing a stored page.
// test/transcripts/stored-pages-equivalence.test.ts holds each row's early answer to the framework's own bytes
// (status, headers, body) for the same call, on every surface.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { createLruCache } from '../../domain/lru-cache.ts';
import { placeStoredPart, readStored, STORED, storedPartOf, type StoredPart } from '../../domain/stored-json.ts';
import type { Context } from '../../router/context.ts';
import { MCP_PATH } from '../mcp/path.ts';
import { resultText } from '../mcp/tool-result.ts';
import { resourceLinksFor, type ToolDef } from '../mcp/tools.ts';
import { rateLimitHeaders } from '../response-headers.ts';
import { REST_PREFIX } from '../rest.ts';
import { TRPC_PREFIX, trpcHeaders } from '../trpc-http.ts';
import { requestText } from '../unicode-edge.ts';

/** The plain stored reads of the router's procedures (step.ts), by REST route and by dotted path. */
interface StoredReads {
  rest(ctx: Context, method: string, path: string, body: unknown): Promise<object | undefined>;
  call(ctx: Context, path: string, input: unknown): Promise<object | undefined>;
  has(path: string): boolean;
  hasRoute(method: string, path: string): boolean;
}

export interface Envelope {
  surface: Context['surface'];
  /** Whether the request is this surface's. */
  takes(path: string): boolean;
  /** Whether the framework's answer is one document the writer can fill (else parts are read as values). */
  writes(request: Request, url: URL): boolean;
  /** Whether written answers are kept for the same answer again. */
  keeps: boolean;
  /** The request as a plain stored read (procedure and input as sent), or undefined: the framework answers. */
  read?(
    request: Request,
    url: URL,
    reads: StoredReads,
  ): Promise<{ call: (ctx: Context) => Promise<object | undefined> } | undefined>;
  /** The early answer, serialized (placeholders in it), as the framework sends it. */
  answer?(ctx: Context, answer: object): { json: string; status: number; headers: Headers };
}

const mediaType = (headers: Headers) => (headers.get('content-type') ?? '').split(';', 1)[0]!.trim().toLowerCase();
const accepts = (headers: Headers) => (headers.get('accept') ?? '').split(',').map((t) => t.trim());

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Whether tRPC streams the answer of a batch (its own reading: `trpc-accept`, else application/jsonl in `accept`). */
function asksForStream(headers: Headers): boolean {
  const wanted =
    headers.get('trpc-accept') ?? (accepts(headers).includes('application/jsonl') ? 'application/jsonl' : null);
  return wanted === 'application/jsonl';
}

/**
 * A call tRPC answers as one JSON document, by tRPC's own tests: the media type is application/json (any case, any
 * parameters; `application/jsonx` is its 415), and no streaming is asked for (`trpc-accept`, or application/jsonl in
 * `accept`: its 400 on a single call).
 */
const plainJsonCall = (headers: Headers) =>
  mediaType(headers) === 'application/json' &&
  !headers.has('trpc-accept') &&
  !accepts(headers).includes('application/jsonl');

function decodedPath(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw; // a malformed escape: no procedure has that name
  }
}

const rest: Envelope = {
  surface: 'rest',
  takes: (path) => path.startsWith(`${REST_PREFIX}/`),
  writes: () => true,
  keeps: true,
  async read(request, url, reads) {
    // trpc-to-openapi reads a POST's JSON body as the input; a query or an empty body is its own to answer.
    if (request.method !== 'POST' || url.search || !request.headers.get('content-type')?.startsWith('application/json'))
      return undefined;
    const path = url.pathname.slice(REST_PREFIX.length);
    if (!reads.hasRoute(request.method, path)) return undefined;
    const text = await requestText(request);
    if (!text) return undefined;
    const input = parseJson(text);
    return input === undefined ? undefined : { call: (ctx) => reads.rest(ctx, request.method, path, input) };
  },
  answer(ctx, answer) {
    const headers = new Headers([['content-type', 'application/json']]);
    for (const [k, v] of rateLimitHeaders(ctx.out.rateLimit)) headers.set(k, v);
    headers.set('x-request-id', ctx.requestId);
    if (ctx.out.location) headers.set('location', ctx.out.location);
    return { json: JSON.stringify(answer), status: ctx.out.status ?? 200, headers };
  },
};

const trpc: Envelope = {
  surface: 'trpc',
  takes: (path) => path.startsWith(`${TRPC_PREFIX}/`),
  writes: (request, url) => !(url.searchParams.get('batch') === '1' && asksForStream(request.headers)),
  keeps: true,
  async read(request, url, reads) {
    const path = decodedPath(url.pathname.slice(TRPC_PREFIX.length + 1));
    if (!reads.has(path) || request.method !== 'POST' || url.search || !plainJsonCall(request.headers))
      return undefined;
    const input = parseJson(await requestText(request));
    return { call: (ctx) => reads.call(ctx, path, input) };
  },
  answer(ctx, answer) {
    const headers = trpcHeaders(ctx);
    // What tRPC's own response carries besides.
    headers.set('vary', 'trpc-accept, accept');
    headers.set('content-type', 'application/json');
    return { json: `{"result":{"data":${JSON.stringify(answer)}}}`, status: 200, headers };
  },
};

// Its plain reads are answered on its direct path, after the endpoint's own admission (src/bridges/mcp/endpoint.ts).
const mcp: Envelope = {
  surface: 'mcp',
  takes: (path) => path === MCP_PATH,
  writes: () => true,
  keeps: false,
};

export const ENVELOPES: readonly Envelope[] = [rest, trpc, mcp];

const TEXT_PATH = ['content', '0', 'text'];

/** Rendered texts live as long as the cached transcripts they are made of. */
const TEXT_TTL_MS = 10 * 60_000;

/**
 * Rendered texts keyed by the tool and its answer (video, language, paging, credits...; the part is a placeholder
 * there), each valid only for the very stored text it was made from; bounded in bytes.
 */
export function createStoredToolTexts(maxBytes: number) {
  const texts = createLruCache<StoredPart>({ maxBytes });
  const textOf = (tool: string, answer: unknown, part: StoredPart, render: () => string): StoredPart => {
    // The placeholder names the part's place in its request: the key is the answer as it would be with the first.
    const key = `${tool}\u0000${JSON.stringify(answer)}`;
    const hit = part.repeats ? texts.get(key) : undefined;
    if (hit && hit.source === part.source) return hit;
    const text = Buffer.from(JSON.stringify(render()));
    const json = { ...part, path: TEXT_PATH, json: [text] };
    // The stored text is held too (shared with the transcript cache while it lives there): counted once more.
    if (part.repeats) texts.set(key, json, 2 * key.length + text.length + part.source.length, TEXT_TTL_MS);
    return json;
  };
  return {
    /**
     * The tool result of `output` when it carries a stored part and the request's answer is written (`out` has a
     * list), its text rendered from the values once; else undefined: the tool result is made of the values.
     */
    result(out: object, tool: ToolDef, output: unknown): CallToolResult | undefined {
      const part = storedPartOf(output);
      if (!part) return undefined;
      const { [STORED]: _part, ...structured } = output as Record<PropertyKey, unknown>;
      const render = () => resultText(tool, readStored(output));
      const text = placeStoredPart(out, textOf(tool.name, structured, part, render));
      if (text === undefined) return undefined;
      // The SDK checks the result's shape: it sees no symbol key.
      return { content: [{ type: 'text', text }, ...resourceLinksFor(tool, output)], structuredContent: structured };
    },
  };
}
