// Raw requests against /mcp, one per MUST of the 2026-07-28 transport (streamable HTTP) and versioning pages that the
// conformance suite does not check, and one per violation a probe of the edges found: what an SDK client would never
// send, sent byte for byte.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_REVISIONS } from '../../src/bridges/mcp/versions.ts';
import { readAnswer } from '../support/clients.ts';
import { fakeVideoSource } from '../support/fake-video-source.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

let s: TestServer;
let key: string;
beforeAll(async () => {
  s = await startTestServer({}, { youtube: fakeVideoSource() });
  ({ key } = await s.newKey({ credits: 10 }));
});
afterAll(() => s?.close());

const MODERN = '2026-07-28';
const meta = (version = MODERN) => ({
  'io.modelcontextprotocol/protocolVersion': version,
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
});
const modern = (id: number | string, method: string, params: Record<string, unknown> = {}, version = MODERN) => ({
  jsonrpc: '2.0',
  id,
  method,
  params: { ...params, _meta: meta(version) },
});

async function post(body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${s.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${key}`,
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return readAnswer(res);
}
/** Headers a 2026-07-28 client mirrors from the body. */
const mirrored = (method: string, name?: string) => ({
  'mcp-protocol-version': MODERN,
  'mcp-method': method,
  ...(name === undefined ? {} : { 'mcp-name': name }),
});

describe('protocol versions: one list everywhere', () => {
  it('an unsupported MCP-Protocol-Version without _meta is 400, -32022 with data.supported, and the request id', async () => {
    const r = await post({ jsonrpc: '2.0', id: 41, method: 'tools/list' }, { 'mcp-protocol-version': '1900-01-01' });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({
      jsonrpc: '2.0',
      id: 41,
      error: {
        code: -32022,
        message: 'Unsupported protocol version',
        data: { supported: [...MCP_REVISIONS], requested: '1900-01-01' },
      },
    });
  });

  it('an unsupported version in _meta (and the header) is the same -32022', async () => {
    const r = await post(modern(7, 'tools/list', {}, '2099-01-01'), {
      ...mirrored('tools/list'),
      'mcp-protocol-version': '2099-01-01',
    });
    expect(r.status).toBe(400);
    expect(r.json.id).toBe(7);
    expect(r.json.error).toMatchObject({
      code: -32022,
      data: { supported: [...MCP_REVISIONS], requested: '2099-01-01' },
    });
  });

  it('a 2025 revision named in _meta gets -32022 listing every revision served, not only the modern one', async () => {
    const r = await post(modern(8, 'tools/list', {}, '2025-11-25'), {
      ...mirrored('tools/list'),
      'mcp-protocol-version': '2025-11-25',
    });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe(-32022);
    expect(r.json.error.data.supported).toEqual([...MCP_REVISIONS]);
  });

  it('server/discover lists the same revisions, and initialize negotiates each 2025 one', async () => {
    const d = await post(modern(1, 'server/discover'), mirrored('server/discover'));
    expect(d.status, d.text).toBe(200);
    expect(d.json.result.supportedVersions).toEqual([...MCP_REVISIONS]);
    expect(d.json.result.capabilities).toMatchObject({ tools: {}, resources: {}, prompts: {} });
    for (const v of MCP_REVISIONS.filter((x) => x < MODERN)) {
      const i = await post({
        jsonrpc: '2.0',
        id: 2,
        method: 'initialize',
        params: { protocolVersion: v, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      });
      expect(i.json.result.protocolVersion).toBe(v);
    }
    // A revision not served is answered with the newest 2025 one (the client then decides).
    const old = await post({
      jsonrpc: '2.0',
      id: 3,
      method: 'initialize',
      params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(old.json.result.protocolVersion).toBe('2025-11-25');
  });
});

describe('401 and our own refusals', () => {
  it('a 401 echoes the request id once the body was read, and its challenge names the scope', async () => {
    for (const authorization of ['Bearer sk_wrongwrongwrongwrongwrongwrong', '']) {
      const r = await post({ jsonrpc: '2.0', id: 'ask-1', method: 'tools/list' }, { authorization });
      expect(r.status).toBe(401);
      expect(r.json.id).toBe('ask-1');
      const challenge = r.headers.get('www-authenticate')!;
      expect(challenge).toContain('scope="mcp"');
      expect(challenge).toContain(`resource_metadata="${new URL('/.well-known/oauth-protected-resource/mcp', s.url)}"`);
    }
  });

  it('our 401, 403, 405, 413 and 429 use codes outside JSON-RPC’s reserved range', async () => {
    const codes: Record<number, number> = {};
    codes[401] = (
      await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, { authorization: 'Bearer nope' })
    ).json.error.code;
    codes[403] = (
      await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, { origin: 'https://evil.example' })
    ).json.error.code;
    codes[405] = (
      await readAnswer(await fetch(`${s.url}/mcp`, { method: 'GET', headers: { authorization: `Bearer ${key}` } }))
    ).json.error.code;
    codes[413] = (
      await post({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(100_000) } })
    ).json.error.code;
    const { key: limited } = await s.newKey({ rateLimit: 1 });
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_credits', arguments: {} } };
    await post(call, { authorization: `Bearer ${limited}`, 'mcp-protocol-version': '2025-11-25' });
    codes[429] = (
      await post(call, { authorization: `Bearer ${limited}`, 'mcp-protocol-version': '2025-11-25' })
    ).json.error.code;
    expect(codes).toEqual({ 401: -31401, 403: -31403, 405: -31405, 413: -31413, 429: -31429 });
    for (const code of Object.values(codes)) expect(code < -32768 || code > -32000).toBe(true);
  });
});

describe('lists', () => {
  it('tools/list, prompts/list and resources/templates/list with a cursor they never gave are -32602', async () => {
    for (const method of ['tools/list', 'prompts/list', 'resources/templates/list']) {
      const legacy = await post(
        { jsonrpc: '2.0', id: 5, method, params: { cursor: 'invented' } },
        { 'mcp-protocol-version': '2025-11-25' },
      );
      expect([legacy.json.id, legacy.json.error?.code], method).toEqual([5, -32602]);
      const now = await post(modern(6, method, { cursor: 'invented' }), mirrored(method));
      expect([now.json.id, now.json.error?.code], method).toEqual([6, -32602]);
    }
    // Without a cursor: the whole list, with resultType and the cache hints on 2026-07-28.
    const tools = await post(modern(7, 'tools/list'), mirrored('tools/list'));
    expect(tools.json.result).toMatchObject({
      resultType: 'complete',
      ttlMs: expect.any(Number),
      cacheScope: 'private',
    });
    expect(tools.json.result.nextCursor).toBeUndefined();
  });
});

/** A raw HTTP/1.1 request, headers written as given (Node's client would refuse a control character). */
function rawPost(headerLines: string[], body: string): Promise<{ status: number; body: any }> {
  const url = new URL(s.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(
        `POST /mcp HTTP/1.1\r\nHost: ${url.host}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\n` +
          `authorization: Bearer ${key}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${headerLines.map((l) => `${l}\r\n`).join('')}\r\n${body}`,
      );
    });
    let data = '';
    socket.on('data', (d: Buffer) => (data += d.toString('utf8')));
    socket.on('error', reject);
    socket.on('end', () => {
      const [head, ...rest] = data.split('\r\n\r\n');
      resolve({ status: Number(head!.split(' ')[1]), body: JSON.parse(rest.join('\r\n\r\n')) });
    });
  });
}

describe('headers Node refuses', () => {
  it('a control character in Mcp-Name is -32020 with the request id, not the REST error body', async () => {
    const body = JSON.stringify(modern(9, 'tools/call', { name: 'get_credits', arguments: {} }));
    const r = await rawPost(
      ['mcp-protocol-version: 2026-07-28', 'mcp-method: tools/call', 'mcp-name: get\u0001credits'],
      body,
    );
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ jsonrpc: '2.0', id: 9, error: { code: -32020 } });
    expect(r.body.error.message).toContain('mcp-name');
  });

  it('a control character in another header of /mcp is a JSON-RPC -32600', async () => {
    const r = await rawPost(['x-note: a\u0002b'], JSON.stringify({ jsonrpc: '2.0', id: 10, method: 'ping' }));
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ jsonrpc: '2.0', id: 10, error: { code: -32600 } });
  });

  it('the same header on a REST path keeps the REST error body', async () => {
    const url = new URL(s.url);
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(Number(url.port), url.hostname, () =>
        socket.write(`GET /api/v1/credits HTTP/1.1\r\nHost: ${url.host}\r\nx-note: a\u0002b\r\n\r\n`),
      );
      let data = '';
      socket.on('data', (d: Buffer) => (data += d));
      socket.on('end', () => resolve(data));
    });
    expect(JSON.parse(answer.split('\r\n\r\n')[1]!)).toMatchObject({ error: { code: 'INVALID_REQUEST' } });
  });
});

describe('streamable HTTP MUSTs (2026-07-28)', () => {
  it('Mcp-Method missing or disagreeing with the body is 400 -32020', async () => {
    const missing = await post(modern(1, 'tools/list'), { 'mcp-protocol-version': MODERN });
    expect([missing.status, missing.json.error?.code, missing.json.id]).toEqual([400, -32020, 1]);
    const wrong = await post(modern(2, 'tools/list'), mirrored('prompts/list'));
    expect([wrong.status, wrong.json.error?.code]).toEqual([400, -32020]);
  });

  it('Mcp-Name missing or disagreeing on tools/call, resources/read and prompts/get is 400 -32020', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['tools/call', { name: 'get_credits', arguments: {} }, 'get_credits'],
      ['resources/read', { uri: 'subtext://articles/art_x' }, 'subtext://articles/art_x'],
      ['prompts/get', { name: 'summarize_video', arguments: { video: 'dQw4w9WgXcQ' } }, 'summarize_video'],
    ];
    for (const [method, params, name] of cases) {
      const missing = await post(modern(3, method, params), mirrored(method));
      expect([missing.status, missing.json.error?.code], method).toEqual([400, -32020]);
      const wrong = await post(modern(4, method, params), mirrored(method, `${name}x`));
      expect([wrong.status, wrong.json.error?.code], method).toEqual([400, -32020]);
      const right = await post(modern(5, method, params), mirrored(method, name));
      expect(right.json.error?.code === -32020, method).toBe(false);
    }
  });

  it('MCP-Protocol-Version disagreeing with _meta is 400 -32020, served or not', async () => {
    for (const header of ['2025-11-25', '1900-01-01']) {
      const r = await post(modern(1, 'tools/list'), { ...mirrored('tools/list'), 'mcp-protocol-version': header });
      expect([r.status, r.json.error?.code, r.json.id], header).toEqual([400, -32020, 1]);
    }
  });

  it('an unknown method is 404 with -32601', async () => {
    const r = await post(modern(1, 'no/such'), mirrored('no/such'));
    expect([r.status, r.json.error?.code, r.json.id]).toEqual([404, -32601, 1]);
  });

  it('a request is answered as application/json or text/event-stream; results carry resultType', async () => {
    const r = await post(modern(1, 'resources/templates/list'), mirrored('resources/templates/list'));
    expect(r.headers.get('content-type')).toMatch(/^(application\/json|text\/event-stream)/);
    expect(r.json.result.resultType).toBe('complete');
    expect(r.json.id).toBe(1);
  });

  it('a notification is 202 with no body', async () => {
    const res = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${key}`,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    expect(res.status).toBe(202);
    expect(await res.text()).toBe('');
  });

  it('a foreign Origin is 403; GET is 405 (no stream endpoint)', async () => {
    const o = await post(modern(1, 'tools/list'), { ...mirrored('tools/list'), origin: 'https://evil.example' });
    expect(o.status).toBe(403);
    const g = await fetch(`${s.url}/mcp`, { headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' } });
    expect(g.status).toBe(405);
    await g.body?.cancel();
  });

  it('error responses echo the request id (string or number)', async () => {
    for (const id of [77, 'seventy-seven']) {
      const r = await post(modern(id, 'no/such'), mirrored('no/such'));
      expect(r.json.id).toBe(id);
    }
  });
});
