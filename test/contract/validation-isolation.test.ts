// One strict validation on every surface, identical before and after REST traffic. trpc-to-openapi used to switch
// coercion on in the router's shared zod schemas at the first REST call, after which MCP and tRPC took "5" and true
// for numbers and ""/"false" for booleans; REST read query strings with Number() (1e1, 0x10, 0b11, 0o7).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeVideoSource } from '../support/fake-video-source.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

let s: TestServer;
let key: string;
beforeAll(async () => {
  s = await startTestServer({}, { youtube: fakeVideoSource() });
  ({ key } = await s.newKey({ credits: 100, rateLimit: 1000 }));
});
afterAll(() => s?.close());

const auth = () => ({ authorization: `Bearer ${key}` });
const VIDEO = 'dQw4w9WgXcQ';

/** status and spec code of one tRPC call */
async function trpc(path: string, type: 'query' | 'mutation', input: unknown): Promise<string> {
  const res =
    type === 'query'
      ? await fetch(`${s.url}/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers: auth() })
      : await fetch(`${s.url}/trpc/${path}`, {
          method: 'POST',
          headers: { ...auth(), 'content-type': 'application/json' },
          body: JSON.stringify(input),
        });
  const json: any = await res.json();
  return `${res.status} ${json.error?.data?.code ?? 'ok'}`;
}

/** outcome of one MCP tool call: the spec code of an isError result, or ok */
async function mcp(tool: string, args: Record<string, unknown>): Promise<string> {
  const client = new Client({ name: 'validation-isolation', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', s.url), { requestInit: { headers: auth() } }));
  try {
    const r: any = await client.callTool({ name: tool, arguments: args });
    return r.isError ? JSON.parse(r.content[0].text).error.code : 'ok';
  } finally {
    await client.close();
  }
}

async function rest(method: string, path: string, body?: unknown): Promise<string> {
  const res = await fetch(`${s.url}/api/v1${path}`, {
    method,
    headers: { ...auth(), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json: any = await res.json();
  return `${res.status} ${json.error?.code ?? 'ok'}`;
}

/** Wrong JSON types on tRPC and MCP: each must be refused, always. */
const probes: [string, () => Promise<string>][] = [
  ['tRPC articles.search limit "5"', () => trpc('articles.search', 'query', { limit: '5' })],
  ['tRPC articles.search page true', () => trpc('articles.search', 'query', { page: true })],
  [
    'tRPC frames.capture includeBase64 ""',
    () => trpc('frames.capture', 'mutation', { videoId: VIDEO, t: 1, includeBase64: '' }),
  ],
  [
    'tRPC frames.capture includeBase64 "false"',
    () => trpc('frames.capture', 'mutation', { videoId: VIDEO, t: 1, includeBase64: 'false' }),
  ],
  ['tRPC frames.capture t "1"', () => trpc('frames.capture', 'mutation', { videoId: VIDEO, t: '1' })],
  ['MCP search_articles limit true', () => mcp('search_articles', { limit: true })],
  ['MCP search_articles limit "5"', () => mcp('search_articles', { limit: '5' })],
  ['MCP get_video_frame t "5"', () => mcp('get_video_frame', { videoId: VIDEO, t: '5' })],
  ['MCP get_video_subtitles limit "10"', () => mcp('get_video_subtitles', { videoId: VIDEO, limit: '10' })],
];

async function runProbes(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [name, probe] of probes) out[name] = await probe();
  return out;
}

describe('validation is identical before and after REST traffic, on every surface', () => {
  let before: Record<string, string>;

  it('before any REST call, tRPC and MCP refuse wrong JSON types', async () => {
    before = await runProbes();
    for (const [name, outcome] of Object.entries(before)) {
      expect(outcome, name).toMatch(name.startsWith('tRPC') ? /^400 INVALID_REQUEST$/ : /^INVALID_REQUEST$/);
    }
  });

  it('REST query strings take plain decimal integers and true/false only', async () => {
    expect(await rest('GET', '/articles?limit=5&page=1')).toBe('200 ok');
    for (const bad of ['1e1', '0x10', '0b11', '0o7', '+5', ' 5', '5 ', '', 'Infinity', '1_0', 'true']) {
      expect(await rest('GET', `/articles?limit=${encodeURIComponent(bad)}`), `limit=${bad}`).toBe(
        '400 INVALID_REQUEST',
      );
    }
    expect(await rest('GET', '/articles?limit=2.5'), 'not an integer').toBe('400 INVALID_REQUEST');
  });

  it('REST JSON bodies take JSON types only', async () => {
    expect(await rest('POST', '/frames', { videoId: VIDEO, t: 1, includeBase64: '' })).toBe('400 INVALID_REQUEST');
    expect(await rest('POST', '/frames', { videoId: VIDEO, t: 1, includeBase64: 'false' })).toBe('400 INVALID_REQUEST');
    expect(await rest('POST', '/frames', { videoId: VIDEO, t: '1' })).toBe('400 INVALID_REQUEST');
    expect(await rest('POST', '/subtitles', { videoId: VIDEO, limit: '10' })).toBe('400 INVALID_REQUEST');
  });

  it('after REST traffic, tRPC and MCP answer exactly as before', async () => {
    // REST calls reaching every coercible procedure (valid ones included), then the same probes again.
    await rest('GET', '/articles?limit=5');
    await rest('POST', '/frames', { videoId: VIDEO, t: 1, includeBase64: false });
    await rest('POST', '/subtitles', { videoId: VIDEO, limit: 10 });
    await fetch(`${s.url}/api/v1/videos/${VIDEO}/frame?t=1&width=320`, { headers: auth() }).then((r) =>
      r.arrayBuffer(),
    );
    expect(await runProbes()).toEqual(before);
  });
});
