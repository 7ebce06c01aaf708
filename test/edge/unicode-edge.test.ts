// Text that is not valid Unicode (a JSON escape of a lone surrogate, bytes that are not UTF-8, percent-encoded or raw)
// is refused at the edge as 400 INVALID_REQUEST in each surface's shape: REST and tRPC's error body, MCP's JSON-RPC
// -32602; OAuth keeps its own shape. Before, a batch's playlist URL holding `\ud800` was a 500 (PostgreSQL's jsonb
// refuses it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUnstorableText } from '../../db/database-errors.ts';
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

const LONE = '\\ud800'; // as JSON text: the six characters of the escape
const INVALID_UTF8 = (before: string, after: string) =>
  new Uint8Array([...Buffer.from(before), 0xff, 0xfe, ...Buffer.from(after)]);

async function send(path: string, init: RequestInit & { headers?: Record<string, string> } = {}) {
  const res = await fetch(`${s.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...init.headers },
  });
  const text = await res.text();
  return { status: res.status, text, json: JSON.parse(text) as any };
}

const mcpHeaders = { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
const mcpCall = (args: string) =>
  `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"create_batch","arguments":${args}}}`;

describe('REST', () => {
  it('a batch whose playlist URL escapes a lone surrogate is 400, not 500', async () => {
    const r = await send('/api/v1/batches', {
      method: 'POST',
      body: `{"playlist":"https://www.youtube.com/playlist?list=PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf&x=${LONE}"}`,
    });
    expect([r.status, r.json.error?.code], r.text).toEqual([400, 'INVALID_REQUEST']);
  });
  it('a body that is not UTF-8, a query and a header that are not, are 400', async () => {
    const body = await send('/api/v1/subtitles', { method: 'POST', body: INVALID_UTF8('{"url":"', '"}') });
    expect([body.status, body.json.error?.code], body.text).toEqual([400, 'INVALID_REQUEST']);
    for (const q of ['%ED%A0%80', '%FF', '%C0%AF']) {
      const r = await send(`/api/v1/articles?query=${q}`);
      expect([q, r.status, r.json.error?.code], r.text).toEqual([q, 400, 'INVALID_REQUEST']);
    }
    const header = await send('/api/v1/credits', { headers: { 'x-note': '\xff\xfe' } });
    expect([header.status, header.json.error?.code], header.text).toEqual([400, 'INVALID_REQUEST']);
  });
  it('well-formed text passes: a surrogate pair, an escaped backslash before "u", UTF-8 in a query', async () => {
    const r = await send('/api/v1/articles?query=%F0%9F%98%80%20caf%C3%A9%20100%');
    expect(r.status, r.text).toBe(200);
    const pair = await send('/api/v1/batches', {
      method: 'POST',
      body: '{"videos":["dQw4w9WgXcQ"],"operation":{"type":"transcript","lang":"\\ud83d\\ude00\\\\ud800"}}',
    });
    // Refused or accepted by the operation's own rules, never by the edge.
    expect(pair.text).not.toMatch(/not valid Unicode|not valid UTF-8/);
  });
});

describe('tRPC and the website', () => {
  it('a keyed call and a session procedure refuse a lone surrogate in tRPC’s shape', async () => {
    const keyed = await send('/trpc/batches.create', {
      method: 'POST',
      body: `{"playlist":"https://www.youtube.com/playlist?list=PL${LONE}"}`,
    });
    expect([keyed.status, keyed.json.error?.data?.code], keyed.text).toEqual([400, 'INVALID_REQUEST']);
    const session = await send('/trpc/account.signIn', {
      method: 'POST',
      headers: { authorization: '' },
      body: `{"email":"a${LONE}@example.com","password":"correct horse battery"}`,
    });
    expect([session.status, session.json.error?.data?.code], session.text).toEqual([400, 'INVALID_REQUEST']);
  });
});

describe('MCP', () => {
  it('a tool call whose arguments are not valid Unicode is a JSON-RPC -32602', async () => {
    for (const body of [
      mcpCall(`{"playlist":"https://www.youtube.com/playlist?list=PL${LONE}"}`),
      INVALID_UTF8(mcpCall('{"playlist":"'), '"}}}'),
    ]) {
      const r = await send('/mcp', { method: 'POST', headers: mcpHeaders, body });
      expect([r.status, r.json.error?.code, r.json.error?.data?.code], r.text).toEqual([
        400,
        -32602,
        'INVALID_REQUEST',
      ]);
    }
  });
});

describe('OAuth keeps its own shape', () => {
  it('POST /oauth/register with \\ud800 in client_name', async () => {
    const r = await send('/oauth/register', {
      method: 'POST',
      body: `{"client_name":"${LONE}","redirect_uris":["https://app.example/cb"]}`,
    });
    expect([r.status, r.json.error]).toEqual([400, 'invalid_request']);
  });
});

describe('the database fallback', () => {
  it('PostgreSQL’s jsonb refusal of a lone surrogate is known as unstorable text', async () => {
    const err = await s.deps.sql`select ${s.deps.sql.json({ playlist: 'PL\ud800' })}`.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeDefined();
    expect(isUnstorableText(err)).toBe(true);
    const uuid = await s.deps.sql`select ${'nope'}::uuid`.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isUnstorableText(uuid), 'other invalid input is not').toBe(false);
  });
});
