import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpClient, mcpError, rest, trpcClient } from '../support/clients.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ DAILY_FREE_CREDITS: '10' });
});
afterAll(() => s?.close());

describe('credits on every surface', () => {
  it('REST answers the balance with both header forms and rate-limit headers', async () => {
    const { key } = await s.newKey({ credits: 5 });
    for (const header of ['bearer', 'x-api-key'] as const) {
      const r = await rest(s.url, 'GET', '/credits', { key, header });
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ balance: 15, dailyAllowance: 10, freeRemaining: 10, purchasedBalance: 5 });
      expect(new Date(r.json.resetsAt).getUTCHours()).toBe(0);
      expect(r.headers.get('ratelimit-limit')).toBe('60');
      expect(r.headers.get('x-request-id')).toMatch(/^req_/);
    }
  });

  it('tRPC gives the same answer with end-to-end types', async () => {
    const { key } = await s.newKey({ credits: 2 });
    const credits = await trpcClient(s.url, key).credits.get.query({});
    expect(credits.balance).toBe(12);
  });

  it('MCP lists get_credits and calls it through the same procedure', async () => {
    const { key } = await s.newKey({ credits: 3 });
    const client = await mcpClient(s.url, key);
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'get_credits')!;
    expect(tool.annotations?.readOnlyHint).toBe(true);
    expect(tool.outputSchema?.properties).toHaveProperty('balance');
    const result: any = await client.callTool({ name: 'get_credits', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.balance).toBe(13);
    await client.close();
  });
});

describe('errors in the spec shape', () => {
  it('unknown route is 404 NOT_FOUND', async () => {
    const r = await rest(s.url, 'GET', '/nope');
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String) } });
  });

  it('wrong method is 405 with Allow', async () => {
    const { key } = await s.newKey();
    const r = await rest(s.url, 'DELETE', '/credits', { key });
    expect(r.status).toBe(405);
    expect(r.json.error.code).toBe('METHOD_NOT_ALLOWED');
    expect(r.headers.get('allow')).toContain('GET');
  });

  it('oversized body is 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await fetch(`${s.url}/api/v1/credits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ x: 'a'.repeat(200_000) }),
    });
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('MCP without a key is an HTTP 401 before the transport, as a JSON-RPC error', async () => {
    const res = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -31401, message: expect.any(String), data: { code: 'INVALID_API_KEY' } },
    });
  });

  it('tRPC errors carry the spec code in data.code', async () => {
    await expect(trpcClient(s.url, 'sk_wrong').credits.get.query({})).rejects.toMatchObject({
      data: { code: 'INVALID_API_KEY', httpStatus: 401 },
    });
  });

  it('MCP tool errors carry the spec code', async () => {
    const { key } = await s.newKey();
    const client = await mcpClient(s.url, key);
    const r = await client.callTool({ name: 'get_article', arguments: { id: 'art_nope' } });
    expect(mcpError(r)?.code).toBe('ARTICLE_NOT_FOUND');
    await client.close();
  });
});

describe('service endpoints', () => {
  it('healthz, readyz, openapi.json and docs', async () => {
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${s.url}/readyz`)).json()).toMatchObject({ status: 'ready' });
    const doc = await (await fetch(`${s.url}/api/v1/openapi.json`)).json();
    expect(doc.openapi).toMatch(/^3\.1/);
    expect(doc.paths['/credits'].get.responses['401'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/Error',
    );
    const docs = await (await fetch(`${s.url}/docs`)).text();
    expect(docs).toContain('/api/v1/openapi.json'); // drawn in the browser from the document (test/web/docs.test.ts)
  });
});
