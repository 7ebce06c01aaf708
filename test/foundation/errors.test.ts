// Every failure, whoever answers it (Hono, the REST bridge, tRPC, the MCP bridge), in the spec's shape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobQueue } from '../../src/infra/queue/job-queue.ts';
import { captureLogger } from '../support/capture-log.ts';
import { fakeVideoSource } from '../support/fake-video-source.ts';
import { sharedServerWithKey } from '../support/shared-server.ts';
import {
  connectMcp,
  expectErrorBody,
  expectMcpErrorBody,
  expectTrpcErrorBody,
  rawMcp,
} from '../support/security-checks.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const shared = sharedServerWithKey({ youtube: fakeVideoSource() });

const auth = () => ({ authorization: `Bearer ${shared.key}` });
async function post(path: string, body: BodyInit, contentType?: string) {
  const headers: Record<string, string> = auth();
  if (contentType) headers['content-type'] = contentType;
  const res = await fetch(`${shared.s.url}${path}`, { method: 'POST', headers, body });
  return { status: res.status, headers: res.headers, json: await res.json() };
}

describe('malformed requests on REST', () => {
  it('broken JSON is 400 INVALID_REQUEST', async () => {
    for (const body of ['{"videoId": ', '{videoId: "dQw4w9WgXcQ"}', 'null x', '\u0000']) {
      const r = await post('/api/v1/subtitles', body, 'application/json');
      expect(r.status).toBe(400);
      expectErrorBody(r.json, 'INVALID_REQUEST');
    }
  });

  it('a body that is not JSON by its content type is 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
      const r = await post('/api/v1/subtitles', '{"videoId":"dQw4w9WgXcQ"}', type);
      expect(r.status, String(type)).toBe(415);
      expectErrorBody(r.json, 'UNSUPPORTED_MEDIA_TYPE');
    }
  });

  it('application/json with a charset is JSON', async () => {
    const r = await post('/api/v1/subtitles', '{"videoId":"x"}', 'application/json; charset=utf-8');
    expect(r.status).toBe(400);
    expect(r.json.error.message).toContain('videoId');
  });

  it('an oversized body is 413 PAYLOAD_TOO_LARGE, with or without Content-Length, on every surface in its own shape', async () => {
    const big = JSON.stringify({ videoId: 'a'.repeat(200_000) });
    const chunked = () =>
      new ReadableStream({
        start(c) {
          c.enqueue(new TextEncoder().encode(big));
          c.close();
        },
      });
    for (const path of ['/api/v1/subtitles', '/trpc/subtitles.get', '/mcp']) {
      for (const body of [big, chunked()]) {
        const res = await fetch(`${shared.s.url}${path}`, {
          method: 'POST',
          headers: { ...auth(), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body,
          duplex: 'half',
        } as RequestInit);
        expect(res.status, path).toBe(413);
        const json = await res.json();
        if (path === '/mcp') expectMcpErrorBody(json, 'PAYLOAD_TOO_LARGE');
        else if (path.startsWith('/trpc')) expectTrpcErrorBody(json, 'PAYLOAD_TOO_LARGE', 413);
        else expectErrorBody(json, 'PAYLOAD_TOO_LARGE');
      }
    }
  });

  it('invalid parameters are 400 INVALID_REQUEST naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ videoId: 5 }, 'videoId'],
      [{ videoId: 'dQw4w9WgXcQ', lang: '!!' }, 'lang'],
      [{ videoId: 'short' }, 'videoId'],
      [{ url: 'https://evil.example/watch?v=dQw4w9WgXcQ' }, 'evil.example'],
      [{}, 'videoId'],
    ];
    for (const [body, field] of cases) {
      const r = await post('/api/v1/subtitles', JSON.stringify(body), 'application/json');
      expect(r.status, JSON.stringify(body)).toBe(400);
      expectErrorBody(r.json, 'INVALID_REQUEST');
      expect(r.json.error.message).toContain(field);
    }
  });

  it('invalid parameters are INVALID_REQUEST on tRPC and MCP too', async () => {
    const t = await fetch(`${shared.s.url}/trpc/subtitles.get`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ videoId: 'dQw4w9WgXcQ', lang: '!!' }),
    });
    expect(t.status).toBe(400);
    const tj = await t.json();
    expect(tj.error.data.code).toBe('INVALID_REQUEST');
    expect(tj.error.message).toContain('lang');

    const client = await connectMcp(shared.s.url, auth());
    const r: any = await client.callTool({
      name: 'get_video_subtitles',
      arguments: { videoId: 'dQw4w9WgXcQ', lang: '!!' },
    });
    expect(r.isError).toBe(true);
    const body = JSON.parse(r.content[0].text);
    expectErrorBody(body, 'INVALID_REQUEST');
    expect(body.error.message).toContain('lang');
    // An unknown tool is a protocol error (JSON-RPC -32602), not a tool result.
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });
});

describe('routes and methods', () => {
  it('an unknown route is 404 NOT_FOUND, inside and outside /api/v1', async () => {
    for (const path of ['/api/v1/nope', '/api/v1/videos/dQw4w9WgXcQ/nope', '/api/v2/credits', '/nowhere', '/api/v1']) {
      const res = await fetch(`${shared.s.url}${path}`, { headers: auth() });
      expect(res.status, path).toBe(404);
      expectErrorBody(await res.json(), 'NOT_FOUND');
    }
  });

  it('an unknown tRPC procedure is 404 with data.code NOT_FOUND', async () => {
    const res = await fetch(`${shared.s.url}/trpc/nope.nope?input=%7B%7D`, { headers: auth() });
    expect(res.status).toBe(404);
    expect((await res.json()).error.data.code).toBe('NOT_FOUND');
  });

  it('a wrong method is 405 METHOD_NOT_ALLOWED with Allow', async () => {
    const cases: [string, string, string][] = [
      ['DELETE', '/api/v1/credits', 'GET'],
      ['POST', '/api/v1/credits', 'GET'],
      ['GET', '/api/v1/subtitles', 'POST'],
      ['PUT', '/api/v1/videos/dQw4w9WgXcQ', 'GET'],
    ];
    for (const [method, path, allowed] of cases) {
      const res = await fetch(`${shared.s.url}${path}`, { method, headers: auth() });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow')).toContain(allowed);
      expectErrorBody(await res.json(), 'METHOD_NOT_ALLOWED');
    }
  });

  it('HEAD is answered like GET: refused without a key, headers only with one', async () => {
    const refused = await fetch(`${shared.s.url}/api/v1/credits`, { method: 'HEAD' });
    expect(refused.status).toBe(401);
    const ok = await fetch(`${shared.s.url}/api/v1/credits`, { method: 'HEAD', headers: auth() });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('');
    expect(ok.headers.get('ratelimit-limit')).toBe('60');
  });

  it('every answer carries x-request-id', async () => {
    for (const path of ['/api/v1/credits', '/api/v1/nope', '/nowhere']) {
      const res = await fetch(`${shared.s.url}${path}`);
      expect(res.headers.get('x-request-id'), path).toMatch(/^req_[0-9a-z]{26}$/);
      await res.body?.cancel();
    }
  });

  it('MCP without a key is 401 with the Bearer challenge; GET and DELETE are 405 (stateless: POST only)', async () => {
    const res = await rawMcp(shared.s.url, {});
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer realm="subtext", resource_metadata="${new URL('/.well-known/oauth-protected-resource/mcp', shared.s.url)}", scope="mcp"`,
    );
    expectMcpErrorBody(await res.json(), 'INVALID_API_KEY', 1);
    for (const method of ['GET', 'DELETE']) {
      const r = await fetch(`${shared.s.url}/mcp`, { method, headers: { ...auth(), accept: 'text/event-stream' } });
      expect(r.status, method).toBe(405);
      expect(r.headers.get('allow')).toBe('POST');
      expectMcpErrorBody(await r.json(), 'METHOD_NOT_ALLOWED');
    }
  });
});

describe('unexpected failures', () => {
  const SECRET = 'relation "secret_table" does not exist';
  let broken: TestServer;
  let brokenKey: string;
  const { log, lines: logged } = captureLogger('error');
  beforeAll(async () => {
    // A queue whose every run fails the way a database would: the message and the query must stay inside.
    const dbError = () =>
      Object.assign(new Error(SECRET), { code: '42P01', query: 'SELECT * FROM secret_table', severity: 'ERROR' });
    const queue = {
      start: async () => {},
      work: async () => {},
      stop: async () => {},
      isRunning: () => false,
      run: async () => {
        throw dbError();
      },
    } as unknown as JobQueue;
    broken = await startTestServer({}, { queue, log });
    ({ key: brokenKey } = await broken.newKey({ credits: 10 }));
  });
  afterAll(() => broken?.close());

  const expectNoLeak = (text: string) => {
    expect(text).not.toContain('secret');
    expect(text).not.toContain('SELECT');
    expect(text).not.toMatch(/\bat .+:\d+:\d+/); // a stack frame
  };

  it('REST answers 500 INTERNAL_ERROR with the request id and nothing of the cause', async () => {
    const res = await fetch(`${broken.url}/api/v1/videos/dQw4w9WgXcQ`, {
      headers: { authorization: `Bearer ${brokenKey}` },
    });
    const text = await res.text();
    expect(res.status).toBe(500);
    const body = JSON.parse(text);
    expectErrorBody(body, 'INTERNAL_ERROR');
    const requestId = res.headers.get('x-request-id')!;
    expect(body.error.message).toContain(requestId);
    expectNoLeak(text);
  });

  it('tRPC answers 500 with data.code INTERNAL_ERROR and nothing of the cause', async () => {
    const res = await fetch(
      `${broken.url}/trpc/videos.info?input=${encodeURIComponent(JSON.stringify({ videoId: 'dQw4w9WgXcQ' }))}`,
      {
        headers: { authorization: `Bearer ${brokenKey}` },
      },
    );
    const text = await res.text();
    expect(res.status).toBe(500);
    const body = JSON.parse(text);
    expect(body.error.data.code).toBe('INTERNAL_ERROR');
    expect(body.error.message).toContain(res.headers.get('x-request-id'));
    expect(body.error.data.stack).toBeUndefined();
    expectNoLeak(text);
  });

  it('MCP answers an isError result with INTERNAL_ERROR and nothing of the cause', async () => {
    const client = await connectMcp(broken.url, { authorization: `Bearer ${brokenKey}` });
    const r: any = await client.callTool({ name: 'get_video_info', arguments: { videoId: 'dQw4w9WgXcQ' } });
    await client.close();
    expect(r.isError).toBe(true);
    const body = JSON.parse(r.content[0].text);
    expectErrorBody(body, 'INTERNAL_ERROR');
    expect(body.error.message).toMatch(/\(request req_[0-9a-z]{26}\)/);
    expectNoLeak(r.content[0].text);
  });

  it('the cause is logged for the operator, with the request id', () => {
    const entries = logged.map((l) => JSON.parse(l)).filter((e) => e.msg === 'unhandled error');
    expect(entries.length).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(entries)).toContain('secret_table');
    for (const e of entries) expect(e.reqId).toMatch(/^req_/);
  });
});
