// Review (MCP resources and prompts): params of the wrong type on the methods /mcp answers with its own handlers
// (resources/read's uri, resources/list's cursor) or the SDK's (prompts/get's name and arguments) were answered as an
// internal error (-32603, with the validator's dump as its message) instead of invalid params (-32602).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.ts';

let s: TestServer;
let key: string;
beforeAll(async () => {
  s = await startTestServer();
  key = (await s.newKey({ credits: 1 })).key;
});
afterAll(async () => s?.close());

let n = 1;
async function rpc(revision: string, method: string, params: Record<string, unknown>) {
  const modern = revision === '2026-07-28';
  const res = await fetch(`${s.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': revision,
      ...(modern ? { 'mcp-method': method } : {}),
      ...(modern && typeof params.name === 'string' ? { 'mcp-name': params.name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: n++,
      method,
      params: modern
        ? {
            ...params,
            _meta: {
              'io.modelcontextprotocol/protocolVersion': revision,
              'io.modelcontextprotocol/clientInfo': { name: 'review', version: '1' },
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          }
        : params,
    }),
  });
  return { status: res.status, json: await res.json() };
}

describe.each(['2025-06-18', '2025-11-25', '2026-07-28'])('malformed params on %s', (revision) => {
  const cases: [string, Record<string, unknown>][] = [
    ['resources/read', { uri: 5 }],
    ['resources/read', {}],
    ['resources/list', { cursor: 5 }],
    ['resources/list', { cursor: { a: 1 } }],
    ['prompts/get', { name: 5 }],
    ['prompts/get', { name: 'summarize-video', arguments: 'x' }],
  ];
  it.each(cases)('%s %j is -32602', async (method, params) => {
    const r = await rpc(revision, method, params);
    expect(r.json.error?.code, JSON.stringify(r.json)).toBe(-32602);
  });
});
