// Cursors and ids a caller sends back are ours only if we issued them. A forged one (an impossible timestamp, a
// position no backend wrote, an id nobody issued, bytes PostgreSQL cannot take) is a 400 or 404 on REST and -32602
// (or a tool's INVALID_REQUEST / NOT_FOUND) on MCP: never a 500, -32603, or a database's own words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogger } from '../support/capture-log.ts';
import { rest } from '../support/clients.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

let s: TestServer;
let key: string;
beforeAll(async () => {
  s = await startTestServer();
  ({ key } = await s.newKey({ credits: 5, rateLimit: 100_000 }));
}, 60_000);
afterAll(async () => {
  await s?.close();
});

/** Words only a database (or a driver) would write. */
const DATABASE_WORDS = /postgres|syntax|relation|column|displacement|timestamp with|out of range|invalid byte|SQL/i;

const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v), 'utf8').toString('base64url');

let nextId = 1;
async function rpc(method: string, params: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await fetch(`${s.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** A REST refusal of a forged value: 400 or 404 in the spec's shape, and nothing from the database. */
function expectRefusedRest(a: { status: number; json: any; text: string }, what: string) {
  expect([400, 404], `${what}: ${a.text}`).toContain(a.status);
  expect(['INVALID_REQUEST', 'NOT_FOUND', 'ARTICLE_NOT_FOUND', 'JOB_NOT_FOUND', 'BATCH_NOT_FOUND'], what).toContain(
    a.json?.error?.code,
  );
  expect(a.text, what).not.toMatch(DATABASE_WORDS);
}

/** An MCP refusal: a -32602 JSON-RPC error, or a tool result refusing with a 4xx code; nothing from the database. */
function expectRefusedMcp(r: { status: number; body: any }, what: string) {
  const text = JSON.stringify(r.body);
  expect(r.status, `${what}: ${text}`).toBeLessThan(500);
  expect(text, what).not.toMatch(DATABASE_WORDS);
  if (r.body.error) {
    expect(r.body.error.code, `${what}: ${text}`).toBe(-32602);
    return;
  }
  const result = r.body.result;
  expect(result?.isError, `${what}: ${text}`).toBe(true);
  const code = JSON.parse(result.content[0].text).error.code;
  expect(['INVALID_REQUEST', 'NOT_FOUND', 'ARTICLE_NOT_FOUND', 'JOB_NOT_FOUND', 'BATCH_NOT_FOUND'], what).toContain(
    code,
  );
}

describe('MCP resources/list cursors', () => {
  const forged = [
    ['2026-01-01 00:00:00+15:99', 'subtext://articles/art_x'],
    ['2026-01-01 00:00:00.123456+15:60', 'subtext://articles/art_x'],
    ['2026-01-01 00:00:00-16', 'subtext://articles/art_x'],
    ['2026-01-01 00:00:00+00', 'subtext://articles/art_\u0000x'],
    ['2026-01-01 00:00:00+00', 'subtext://articles/art_\ud800'],
    ['2026-02-30 00:00:00+00', 'subtext://articles/art_x'],
  ];
  it('a forged position is -32602, never -32603 with the database’s message', async () => {
    for (const position of forged) {
      const r = await rpc('resources/list', { cursor: b64(position) });
      expect(r.body.error?.code, `${position}: ${JSON.stringify(r.body)}`).toBe(-32602);
      expect(JSON.stringify(r.body)).not.toMatch(DATABASE_WORDS);
    }
  });
  it('a cursor we issued still pages (the offset with minutes is ours too)', async () => {
    const r = await rpc('resources/list', { cursor: b64(['2026-01-01 00:00:00+05:30', 'subtext://articles/art_x']) });
    expect(r.body.result?.resources, JSON.stringify(r.body)).toEqual([]);
  });
});

describe('article search cursors', () => {
  const scopeless = [
    'nope',
    b64('{"v":1}'),
    b64({ v: 1, s: 'x', p: {}, o: 0, n: 0, x: true }),
    b64({ v: 2, s: 'x', p: {}, o: -1, n: 0, x: true }),
  ];
  it('REST and MCP refuse a cursor the search did not issue', async () => {
    for (const cursor of scopeless) {
      expectRefusedRest(await rest(s.url, 'GET', '/articles', { key, query: { query: 'talk', cursor } }), cursor);
      expectRefusedMcp(
        await rpc('tools/call', { name: 'search_articles', arguments: { query: 'talk', cursor } }),
        `mcp ${cursor}`,
      );
    }
  });
});

describe('listing cursors', () => {
  it('a cursor from nowhere, or from another listing, is refused before YouTube is asked', async () => {
    const playlistId = 'PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf';
    for (const cursor of ['nope', b64({ v: 1, s: 'playlist:PLother', c: 'token' }), b64({ v: 1, s: 1, c: '' })]) {
      expectRefusedRest(
        await rest(s.url, 'GET', '/playlists/videos', { key, query: { playlistId, cursor } }),
        `playlist ${cursor}`,
      );
      expectRefusedMcp(
        await rpc('tools/call', { name: 'list_playlist_videos', arguments: { playlistId, cursor } }),
        `mcp playlist ${cursor}`,
      );
    }
  });
});

const FORGED_IDS = [
  'x',
  'job_00000000000000000000000000',
  'bat_00000000000000000000000000',
  'art_00000000000000000000000000',
  "' or 1=1 --",
  'a\u0000b',
  '9'.repeat(64),
  '00000000-0000-0000-0000-000000000000',
  '..',
];

describe('ids of jobs, batches, articles and tasks', () => {
  it('REST answers 400 or 404 for an id nobody issued', async () => {
    for (const id of FORGED_IDS) {
      const p = encodeURIComponent(id);
      expectRefusedRest(await rest(s.url, 'GET', `/jobs/${p}`, { key }), `job ${id}`);
      expectRefusedRest(await rest(s.url, 'GET', `/batches/${p}`, { key }), `batch ${id}`);
      expectRefusedRest(await rest(s.url, 'POST', `/batches/${p}/cancel`, { key }), `cancel ${id}`);
      expectRefusedRest(await rest(s.url, 'GET', `/articles/${p}`, { key }), `article ${id}`);
    }
  });
  it('MCP tools, resources and tasks refuse them the same way', async () => {
    for (const id of FORGED_IDS) {
      for (const name of ['get_job', 'get_batch', 'cancel_batch', 'get_article'])
        expectRefusedMcp(await rpc('tools/call', { name, arguments: { id } }), `${name} ${id}`);
      expectRefusedMcp(
        await rpc('resources/read', { uri: `subtext://articles/${encodeURIComponent(id)}` }),
        `article resource ${id}`,
      );
    }
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'forged', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
    };
    for (const taskId of FORGED_IDS.filter((id) => !id.includes('\u0000'))) {
      for (const method of ['tasks/get', 'tasks/cancel']) {
        const r = await rpc(
          method,
          { taskId, _meta: meta },
          { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, 'mcp-name': taskId },
        );
        expectRefusedMcp(r, `${method} ${taskId}`);
      }
    }
  });
});

describe('frames', () => {
  const forgedTimes = ['1e400', 'NaN', '-1', '99999999999999999999', '0x10', '1.0000000000000000001e308'];
  it('REST refuses forged video ids and timestamps without a 500', async () => {
    for (const t of forgedTimes) {
      const a = await rest(s.url, 'GET', `/videos/${encodeURIComponent('zz')}/frame`, { key, query: { t } });
      expectRefusedRest(a, `frame ${t}`);
    }
    for (const path of [
      '/frames/dQw4w9WgXcQ/99999999999/640.jpg',
      '/frames/dQw4w9WgXcQ/1000/640.jpg?exp=1&sig=forged',
      '/frames/media-forged/1000/640.jpg?exp=99999999999999999999&sig=x',
    ]) {
      const res = await fetch(`${s.url}${path}`);
      expect([403, 404], path).toContain(res.status);
      expect(await res.text(), path).not.toMatch(DATABASE_WORDS);
    }
  });
  it('MCP frame resources refuse forged timestamps and ids', async () => {
    for (const t of forgedTimes)
      expectRefusedMcp(await rpc('resources/read', { uri: `subtext://frames/zz/${t}` }), `frame resource ${t}`);
    // Not a number at all: refused before the video is looked up (a large number waits for the video's duration).
    for (const t of ['1e400', 'NaN', 'abc', '-Infinity'])
      expectRefusedMcp(
        await rpc('resources/read', { uri: `subtext://frames/dQw4w9WgXcQ/${encodeURIComponent(t)}` }),
        `frame resource of a real-looking id at ${t}`,
      );
  });
});

describe('internal errors on MCP', () => {
  it('a database failure inside a handler is -32603 with a generic message and the request id, logged in full', async () => {
    const { log, lines } = captureLogger('error');
    const failing = await startTestServer(
      {},
      {
        log,
        resourceLibrary: {
          note: async () => {},
          page: async () => {
            throw Object.assign(new Error('relation "account_resources" does not exist'), { code: '42P01' });
          },
        },
      },
    );
    try {
      const { key: k } = await failing.newKey();
      const res = await fetch(`${failing.url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${k}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'resources/list', params: {} }),
      });
      const body = (await res.json()) as any;
      const requestId = res.headers.get('x-request-id');
      expect(body.error).toEqual({
        code: -32603,
        message: `Internal error (request ${requestId})`,
        data: { code: 'INTERNAL_ERROR', httpStatus: 500, requestId },
      });
      expect(lines.join('\n')).toMatch(/relation \\"account_resources\\" does not exist/);
    } finally {
      await failing.close();
    }
  });
});
