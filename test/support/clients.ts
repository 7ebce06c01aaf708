import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createTRPCClient, httpLink } from '@trpc/client';
import type { AppRouter } from '../../src/router/index.ts';
import { expectMatchesOpenApi } from './openapi-responses.ts';

export async function rest(
  base: string,
  method: string,
  path: string,
  opts: { key?: string; header?: 'bearer' | 'x-api-key'; body?: unknown; query?: Record<string, string> } = {},
) {
  const url = new URL(`/api/v1${path}`, base);
  for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, v);
  const headers: Record<string, string> = {};
  if (opts.key) {
    if (opts.header === 'x-api-key') headers['x-api-key'] = opts.key;
    else headers.authorization = `Bearer ${opts.key}`;
  }
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const answer = await readAnswer(res);
  // Every REST answer a test sees, errors included, is checked against the served OpenAPI document.
  await expectMatchesOpenApi(base, method, res, answer.text);
  return answer;
}

/** Status, headers, body text and the body parsed as JSON when it is JSON. */
export async function readAnswer(res: Response) {
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}

export function trpcClient(base: string, key?: string) {
  return createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${base}/trpc`, headers: () => (key ? { authorization: `Bearer ${key}` } : {}) })],
  });
}

export async function mcpClient(base: string, key: string) {
  const client = new Client({ name: 'subtext-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', base), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

/** The spec's error body, parsed from an MCP tool result. */
export function mcpError(result: any): { code: string; message: string } | undefined {
  if (!result.isError) return undefined;
  return JSON.parse(result.content[0].text).error;
}
