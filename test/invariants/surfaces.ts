// One call of a procedure on a chosen surface (REST, tRPC or MCP) for an account, answered in one shape: the HTTP
// status (MCP: 200 or the error's), the spec's error code, the data, the raw text (scanned for other accounts'
// secrets) and the request id the ledger records (REST and tRPC send it as x-request-id).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { mcpClient, mcpError } from '../support/clients.ts';

export type Surface = 'rest' | 'trpc' | 'mcp';

export interface Answer {
  surface: Surface;
  status: number;
  code?: string;
  data: any;
  text: string;
  requestId?: string;
}

/** A procedure as each surface names it; `mcp` absent when it has no tool (frames.capture). */
export interface Route {
  trpc: string;
  kind: 'query' | 'mutation';
  rest: { method: 'GET' | 'POST'; path: (input: any) => string; query?: (input: any) => Record<string, string> };
  mcp?: string;
}

const ROUTES = {
  transcript: {
    trpc: 'subtitles.get',
    kind: 'mutation',
    rest: { method: 'POST', path: () => '/subtitles' },
    mcp: 'get_video_subtitles',
  },
  frames: { trpc: 'frames.capture', kind: 'mutation', rest: { method: 'POST', path: () => '/frames' } },
  translate: {
    trpc: 'transcripts.translate',
    kind: 'mutation',
    rest: { method: 'POST', path: () => '/transcripts/translate' },
    mcp: 'translate_transcript',
  },
  summary: {
    trpc: 'summaries.create',
    kind: 'mutation',
    rest: { method: 'POST', path: () => '/summaries' },
    mcp: 'summarize_video',
  },
  createBatch: {
    trpc: 'batches.create',
    kind: 'mutation',
    rest: { method: 'POST', path: () => '/batches' },
    mcp: 'create_batch',
  },
  cancelBatch: {
    trpc: 'batches.cancel',
    kind: 'mutation',
    rest: { method: 'POST', path: (i) => `/batches/${encodeURIComponent(i.id)}/cancel` },
    mcp: 'cancel_batch',
  },
  getBatch: {
    trpc: 'batches.get',
    kind: 'query',
    rest: { method: 'GET', path: (i) => `/batches/${encodeURIComponent(i.id)}` },
    mcp: 'get_batch',
  },
  getJob: {
    trpc: 'jobs.get',
    kind: 'query',
    rest: { method: 'GET', path: (i) => `/jobs/${encodeURIComponent(i.id)}` },
    mcp: 'get_job',
  },
  videoInfo: {
    trpc: 'videos.info',
    kind: 'query',
    rest: { method: 'GET', path: (i) => `/videos/${encodeURIComponent(i.videoId)}` },
    mcp: 'get_video_info',
  },
  searchArticles: {
    trpc: 'articles.search',
    kind: 'query',
    rest: { method: 'GET', path: () => '/articles', query: (i) => ({ q: i.q }) },
    mcp: 'search_articles',
  },
  credits: { trpc: 'credits.get', kind: 'query', rest: { method: 'GET', path: () => '/credits' }, mcp: 'get_credits' },
} satisfies Record<string, Route>;

export type RouteName = keyof typeof ROUTES;

/** Each REST call must come back within this, or the program fails as a hang. */
const CALL_TIMEOUT_MS = 60_000;

export class Caller {
  private mcp?: Promise<Client>;
  readonly base: string;
  readonly key: string;
  constructor(base: string, key: string) {
    this.base = base;
    this.key = key;
  }

  async call(surface: Surface, name: RouteName, input: Record<string, unknown>): Promise<Answer> {
    const route: Route = ROUTES[name];
    if (surface === 'mcp' && route.mcp) return this.callMcp(route.mcp, input);
    if (surface === 'trpc') return this.callTrpc(route, input);
    return this.callRest(route, input);
  }

  private async callRest(route: Route, input: Record<string, unknown>): Promise<Answer> {
    const url = new URL(`/api/v1${route.rest.path(input)}`, this.base);
    for (const [k, v] of Object.entries(route.rest.query?.(input) ?? {})) url.searchParams.set(k, v);
    const post = route.rest.method === 'POST';
    const res = await fetch(url, {
      method: route.rest.method,
      headers: { authorization: `Bearer ${this.key}`, ...(post ? { 'content-type': 'application/json' } : {}) },
      body: post ? JSON.stringify(input) : undefined,
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    const text = await res.text();
    const json = parse(text);
    return {
      surface: 'rest',
      status: res.status,
      code: json?.error?.code,
      data: res.ok ? json : undefined,
      text,
      requestId: res.headers.get('x-request-id') ?? undefined,
    };
  }

  private async callTrpc(route: Route, input: Record<string, unknown>): Promise<Answer> {
    const headers = { authorization: `Bearer ${this.key}` };
    const signal = AbortSignal.timeout(CALL_TIMEOUT_MS);
    const res =
      route.kind === 'query'
        ? await fetch(`${this.base}/trpc/${route.trpc}?input=${encodeURIComponent(JSON.stringify(input))}`, {
            headers,
            signal,
          })
        : await fetch(`${this.base}/trpc/${route.trpc}`, {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json' },
            body: JSON.stringify(input),
            signal,
          });
    const text = await res.text();
    const json = parse(text);
    return {
      surface: 'trpc',
      status: res.status,
      code: json?.error?.data?.code,
      data: json?.result?.data,
      text,
      requestId: res.headers.get('x-request-id') ?? undefined,
    };
  }

  private async callMcp(tool: string, input: Record<string, unknown>): Promise<Answer> {
    try {
      this.mcp ??= mcpClient(this.base, this.key);
      const client = await this.mcp;
      const result: any = await client.callTool({ name: tool, arguments: input }, undefined, {
        timeout: CALL_TIMEOUT_MS,
      });
      const error = mcpError(result);
      return {
        surface: 'mcp',
        status: error ? 400 : 200,
        code: error?.code,
        data: error ? undefined : result.structuredContent,
        text: JSON.stringify(result),
      };
    } catch (e) {
      // An HTTP error of the transport (a 503 while the database is down): an answer like the others. A failed
      // connect is made again on the next call.
      const status = (e as { code?: unknown }).code;
      if (typeof status !== 'number' || status < 400) throw e;
      const client = await this.mcp?.catch(() => undefined);
      if (!client) this.mcp = undefined;
      const text = (e as Error).message;
      return { surface: 'mcp', status, code: /"code":"([A-Z_]+)"/.exec(text)?.[1], data: undefined, text };
    }
  }

  async close() {
    await (await this.mcp?.catch(() => undefined))?.close();
  }
}

function parse(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
