// /mcp as MCP clients expect it: streamable HTTP, stateless, revisions 2025-06-18, 2025-11-25 and 2026-07-28 on one
// endpoint; transport refusals as JSON-RPC errors with the HTTP status kept; DNS-rebinding protection; protocol
// errors (-32602) apart from tool execution errors (isError); tools that declare and honour outputSchema.
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAnswer, rest } from '../support/clients.ts';
import { fakeVideoSource } from '../support/fake-video-source.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

let s: TestServer;
let key: string;
const ALLOWED = 'https://app.example.com';
beforeAll(async () => {
  s = await startTestServer({ MCP_ALLOWED_ORIGINS: ALLOWED }, { youtube: fakeVideoSource() });
  ({ key } = await s.newKey({ credits: 100 }));
});
afterAll(() => s?.close());

const auth = () => ({ authorization: `Bearer ${key}` });
const VIDEO = 'dQw4w9WgXcQ';

async function post(body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${s.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...auth(),
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return readAnswer(res);
}

const initialize = (protocolVersion: string) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/** A JSON-RPC error answered at the HTTP level, with the spec's code in data. */
function expectJsonRpcError(r: { status: number; json: any }, status: number, code: string) {
  expect(r.status).toBe(status);
  expect(r.json).toMatchObject({
    jsonrpc: '2.0',
    error: { code: expect.any(Number), message: expect.any(String), data: { code, httpStatus: status } },
  });
  expect('id' in r.json).toBe(true);
}

describe('transport', () => {
  it('GET and DELETE are 405 with Allow: POST (no stream to reconnect to, no session to end)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${s.url}/mcp`, { method, headers: { ...auth(), accept: 'text/event-stream' } });
      const json = await res.json();
      expectJsonRpcError({ status: res.status, json }, 405, 'METHOD_NOT_ALLOWED');
      expect(res.headers.get('allow')).toBe('POST');
    }
  });

  it('a foreign Origin is 403 (DNS rebinding); no Origin, our own and configured origins are served', async () => {
    for (const origin of ['https://evil.example', 'http://localhost.evil.example', 'null', `${s.url}.evil.example`]) {
      expectJsonRpcError(await post(initialize('2025-11-25'), { origin }), 403, 'FORBIDDEN');
    }
    for (const headers of [{}, { origin: s.url }, { origin: ALLOWED }] as Record<string, string>[]) {
      const r = await post(initialize('2025-11-25'), headers);
      expect(r.status, JSON.stringify(headers)).toBe(200);
      expect(r.json.result.protocolVersion).toBe('2025-11-25');
    }
  });

  it('401 is a JSON-RPC error with the Bearer challenge', async () => {
    const r = await post(initialize('2025-11-25'), { authorization: 'Bearer sk_wrongwrongwrongwrongwrongwrong' });
    expectJsonRpcError(r, 401, 'INVALID_API_KEY');
    expect(r.headers.get('www-authenticate')).toBe(
      `Bearer realm="subtext", error="invalid_token", error_description="The API key is invalid, revoked or expired", resource_metadata="${new URL('/.well-known/oauth-protected-resource/mcp', s.url)}", scope="mcp"`,
    );
  });

  it('413 is a JSON-RPC error', async () => {
    const r = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_credits', arguments: { pad: 'x'.repeat(100_000) } },
    });
    expectJsonRpcError(r, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('a rate-limited tool call is HTTP 429 with Retry-After, a JSON-RPC error answering that call', async () => {
    const { key: limited } = await s.newKey({ rateLimit: 1 });
    const call = (id: number) =>
      post(
        { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get_credits', arguments: {} } },
        { authorization: `Bearer ${limited}`, 'mcp-protocol-version': '2025-11-25' },
      );
    expect((await call(1)).status).toBe(200);
    const r = await call(7);
    expectJsonRpcError(r, 429, 'RATE_LIMITED');
    expect(r.json.id).toBe(7);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(r.headers.get('retry-after')).toBe(r.headers.get('ratelimit-reset'));
  });

  it('the rate limit counts each tool call once, and never protocol traffic', async () => {
    const { key: limited } = await s.newKey({ rateLimit: 2 });
    const headers = { authorization: `Bearer ${limited}`, 'mcp-protocol-version': '2025-11-25' };
    expect((await post(initialize('2025-11-25'), headers)).status).toBe(200);
    expect((await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, headers)).status).toBe(200);
    const call = (id: number) =>
      post({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get_credits', arguments: {} } }, headers);
    const first = await call(3);
    expect([first.status, first.headers.get('ratelimit-remaining')]).toEqual([200, '1']);
    const second = await call(4);
    expect([second.status, second.headers.get('ratelimit-remaining')]).toEqual([200, '0']);
    expectJsonRpcError(await call(5), 429, 'RATE_LIMITED');
  });

  it('a 2025-03-26 batch of tool calls gets as many answers as the window has room for; the rest are RATE_LIMITED', async () => {
    const { key: limited } = await s.newKey({ rateLimit: 2 });
    const batch = [3, 4, 5].map((id) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'get_credits', arguments: {} },
    }));
    const r = await post(batch, { authorization: `Bearer ${limited}`, 'mcp-protocol-version': '2025-03-26' });
    expect(r.status, r.text).toBe(200);
    const results = (r.json as any[])
      .map((m) => (m.result.isError ? JSON.parse(m.result.content[0].text).error.code : 'ok'))
      .sort();
    expect(results).toEqual(['RATE_LIMITED', 'ok', 'ok']);
  });

  it('refusals over reused connections never reset one: concurrent calls each get their answer', async () => {
    // Answers given before the SDK runs (401, 429) must still read the request, or a client reusing the connection
    // under load meets ECONNRESET instead of the answer.
    const { key: limited } = await s.newKey({ rateLimit: 1 });
    const body = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'get_credits', arguments: { pad: 'x'.repeat(20_000) } },
    });
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        post(body(i), {
          authorization: `Bearer ${i % 3 === 0 ? 'sk_wrongwrongwrongwrongwrongwrong' : limited}`,
          'mcp-protocol-version': '2025-11-25',
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((st) => st === 401)).toHaveLength(10);
    expect(statuses.filter((st) => st === 200)).toHaveLength(1);
    expect(statuses.filter((st) => st === 429)).toHaveLength(19);
  });

  it('JSON-RPC batches are refused on revisions that removed them', async () => {
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
    ];
    for (const version of ['2025-06-18', '2025-11-25']) {
      const r = await post(batch, { 'mcp-protocol-version': version });
      expectJsonRpcError(r, 400, 'INVALID_REQUEST');
      expect(r.json.error.code).toBe(-32600);
    }
  });
});

describe('protocol errors and tool errors', () => {
  const call = (params: unknown) =>
    post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params }, { 'mcp-protocol-version': '2025-11-25' });

  it('an unknown tool, or a tools/call without a valid name, is JSON-RPC -32602', async () => {
    for (const params of [
      { name: 'no_such_tool', arguments: {} },
      { arguments: {} },
      { name: 5, arguments: {} },
      { name: '', arguments: {} },
    ]) {
      const r = await call(params);
      expect(r.status, JSON.stringify(params)).toBe(200);
      expect(r.json.error?.code, JSON.stringify(r.json)).toBe(-32602);
      expect(r.json.id).toBe(3);
    }
  });

  it('input that fails the tool’s schema is a tool execution error with INVALID_REQUEST', async () => {
    const r = await call({ name: 'get_video_info', arguments: { videoId: 'short' } });
    expect(r.json.result.isError).toBe(true);
    expect(JSON.parse(r.json.result.content[0].text).error.code).toBe('INVALID_REQUEST');
  });
});

describe('revisions', () => {
  it('2025-06-18 and 2025-11-25 are negotiated by initialize', async () => {
    for (const version of ['2025-06-18', '2025-11-25']) {
      const r = await post(initialize(version));
      expect(r.json.result.protocolVersion).toBe(version);
      expect(r.json.result.capabilities.tools).toBeDefined();
      const list = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-protocol-version': version });
      expect(list.json.result.tools.length).toBeGreaterThan(5);
    }
  });

  it('2026-07-28: server/discover and per-request _meta, with the v2 SDK client', async () => {
    const client = new ClientV2(
      { name: 'v2-test', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(new TransportV2(new URL('/mcp', s.url), { requestInit: { headers: auth() } }));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('get_credits');
    const r: any = await client.callTool({ name: 'get_credits', arguments: {} });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent.balance).toBe(100);
    await client.close();

    const discover = await post(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'server/discover',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      },
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' },
    );
    expect(discover.status, discover.text).toBe(200);
    expect(
      discover.json.result.supportedVersions ??
        discover.json.result.protocolVersions ??
        JSON.stringify(discover.json.result),
    ).toContain('2026-07-28');
  });
});

describe('tools', () => {
  it('declare outputSchema (except the image tool) and the right annotations', async () => {
    const client = new Client({ name: 'v1-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', s.url), { requestInit: { headers: auth() } }),
    );
    const { tools } = await client.listTools();
    await client.close();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    for (const t of tools) {
      if (t.name === 'get_video_frame') expect(t.outputSchema).toBeUndefined();
      else expect(t.outputSchema?.type, t.name).toBe('object');
      expect(t.annotations?.destructiveHint, t.name).toBe(false);
      // read-only implies idempotent
      if (t.annotations?.readOnlyHint) expect(t.annotations.idempotentHint, t.name).toBe(true);
    }
    // Spending credits is a change of state: not read-only.
    for (const name of ['get_video_subtitles', 'get_video_frame', 'translate_transcript', 'summarize_video'])
      expect(byName[name]!.annotations!.readOnlyHint, name).toBe(false);
    for (const name of [
      'get_video_info',
      'list_subtitle_tracks',
      'get_credits',
      'search_articles',
      'get_article',
      'get_job',
    ])
      expect(byName[name]!.annotations!.readOnlyHint, name).toBe(true);
    // Only YouTube and the language model are the open world.
    for (const name of ['get_credits', 'search_articles', 'get_article', 'get_job'])
      expect(byName[name]!.annotations!.openWorldHint, name).toBe(false);
  });

  it('return structuredContent that validates against outputSchema, and text for models, on every revision', async () => {
    const calls: [string, Record<string, unknown>][] = [
      ['get_credits', {}],
      ['get_video_info', { videoId: VIDEO }],
      ['list_subtitle_tracks', { videoId: VIDEO }],
      ['get_video_subtitles', { videoId: VIDEO }],
      ['search_articles', { query: 'nothing here' }],
    ];
    const v1 = new Client({ name: 'v1-test', version: '1.0.0' });
    await v1.connect(new StreamableHTTPClientTransport(new URL('/mcp', s.url), { requestInit: { headers: auth() } }));
    const v2 = new ClientV2(
      { name: 'v2-test', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await v2.connect(new TransportV2(new URL('/mcp', s.url), { requestInit: { headers: auth() } }));
    // Both SDK clients validate structuredContent against the listed outputSchema and throw when it does not match.
    await v1.listTools();
    await v2.listTools();
    for (const client of [v1, v2] as any[]) {
      for (const [name, args] of calls) {
        const r = await client.callTool({ name, arguments: args });
        expect(r.isError, `${name}: ${JSON.stringify(r.content).slice(0, 200)}`).toBeFalsy();
        expect(r.structuredContent, name).toBeTypeOf('object');
        expect(r.content[0].type).toBe('text');
        expect(r.content[0].text.length).toBeGreaterThan(0);
      }
    }
    await v1.close();
    await v2.close();
  });

  it('a stored transcript answers every page the same on every call, with the segments REST answers', async () => {
    const call = (args: object, id: string) =>
      post(
        {
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'get_video_subtitles', arguments: { videoId: VIDEO, ...args } },
        },
        { 'mcp-protocol-version': '2025-11-25' },
      );
    await call({}, 'store');
    const stored = (await rest(s.url, 'POST', '/subtitles', { key, body: { videoId: VIDEO } })).json.segments;
    for (const args of [{}, { limit: 1 }, { offset: 1 }, { offset: 1, format: 'vtt' }]) {
      const first = await call(args, 'first');
      const again = await call(args, 'again');
      expect(again.text, JSON.stringify(args)).toBe(first.text.replace('"id":"first"', '"id":"again"'));
      const { content, structuredContent } = first.json.result;
      expect(structuredContent.segments.length).toBeGreaterThan(0);
      expect(structuredContent.segments).toEqual(
        stored.slice(structuredContent.offset, structuredContent.offset + structuredContent.segments.length),
      );
      // The text a model reads: a header, then this page's segments (as lines, or as the file asked for).
      for (const segment of structuredContent.segments) expect(content[0].text).toContain(segment.text);
    }
  });

  it('a 2025 tools/call answered without an SDK server is the SDK server’s answer, resource links and all', async () => {
    // A params field the direct path does not know (or a call declaring the Tasks extension) goes to the SDK.
    const call = (args: object, params: object = {}) =>
      post(
        {
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: { name: 'get_video_subtitles', arguments: { videoId: VIDEO, ...args }, ...params },
        },
        { 'mcp-protocol-version': '2025-11-25' },
      );
    const viaSdk = {
      _meta: { 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
    };
    await call({});
    const pages = [{}, { limit: 1 }, { offset: 1, format: 'vtt' }, { words: true }, { chapters: true }];
    for (const args of [...pages, { limit: 0 }]) {
      const direct = await call(args);
      // A page links its transcript; input the tool refuses is a tool execution error.
      if (args.limit === 0) expect(direct.json.result.isError).toBe(true);
      else expect(direct.json.result.content.some((c: { type: string }) => c.type === 'resource_link')).toBe(true);
      for (const params of [{ unknownField: 1 }, viaSdk]) {
        const sdk = await call(args, params);
        expect(sdk.text, JSON.stringify({ args, params })).toBe(direct.text);
      }
    }
  });
});
