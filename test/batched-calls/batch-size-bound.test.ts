// Review attack on batched calls (a354838): how many calls one HTTP request may carry. tRPC ran every call of a
// batch at once, each with its own key lookup and count, bounded only by the 16 KiB URL: about 1,300 calls per
// request, so a handful of requests queued thousands of statements in front of everyone else's. A batch is now
// bounded like a JSON-RPC batch on MCP (the SDK's 100): past it the request is refused before any call runs or is
// counted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.ts';

describe('calls per batch', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({});
  });
  afterAll(async () => {
    await s?.close();
  });

  const batch = (key: string, calls: number) => {
    const input = JSON.stringify(Object.fromEntries(Array.from({ length: calls }, (_, i) => [i, {}])));
    const path = Array.from({ length: calls }, () => 'credits.get').join(',');
    return fetch(`${s.url}/trpc/${path}?batch=1&input=${encodeURIComponent(input)}`, {
      headers: { authorization: `Bearer ${key}` },
    });
  };

  it('tRPC: 100 calls are served; 101 are refused whole, none run or counted', async () => {
    const { key } = await s.newKey({ rateLimit: 1000 });
    const served = await batch(key, 100);
    expect(((await served.json()) as { result?: unknown }[]).filter((a) => a.result)).toHaveLength(100);

    const refused = await batch(key, 101);
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as { error: { data: { code: string; requestId: string } } };
    expect(body.error.data.code).toBe('INVALID_REQUEST');
    expect(body.error.data.requestId).toBe(refused.headers.get('x-request-id'));

    // Nothing of the refused batch was counted: the next call is the 101st of the window.
    const next = await fetch(`${s.url}/trpc/credits.get`, { headers: { authorization: `Bearer ${key}` } });
    expect(next.headers.get('ratelimit-remaining') ?? next.headers.get('x-ratelimit-remaining')).toBe('899');
  });

  it('MCP 2025-03-26: a JSON-RPC batch past 100 messages is refused too, before the SDK runs any', async () => {
    const { key } = await s.newKey({ rateLimit: 1000 });
    const messages = Array.from({ length: 101 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i,
      method: 'tools/call',
      params: { name: 'get_credits', arguments: {} },
    }));
    const res = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-03-26',
      },
      body: JSON.stringify(messages),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32600);
    const next = await fetch(`${s.url}/trpc/credits.get`, { headers: { authorization: `Bearer ${key}` } });
    expect(next.headers.get('ratelimit-remaining') ?? next.headers.get('x-ratelimit-remaining')).toBe('999');
  });
});
