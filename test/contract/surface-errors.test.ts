// How each surface answers failures the HTTP layer or the procedures raise: the Bearer challenge on every 401,
// Retry-After on every 429 and 503 (the error's own value), tRPC's own shape and methods, and limits on the request
// line answered in the spec's shape.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/domain/errors.ts';
import type { JobQueue } from '../../src/infra/queue/job-queue.ts';
import { trpcClient } from '../support/clients.ts';
import { fakeVideoSource } from '../support/fake-video-source.ts';
import { sharedServerWithKey } from '../support/shared-server.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const shared = sharedServerWithKey({ youtube: fakeVideoSource() });

const VIDEO = 'dQw4w9WgXcQ';
const auth = (k = shared.key) => ({ authorization: `Bearer ${k}` });
const BARE = 'Bearer realm="subtext"';
const INVALID =
  'Bearer realm="subtext", error="invalid_token", error_description="The API key is invalid, revoked or expired"';

/** One request to every surface and file route; `headers` carry the key (or not). */
function everySurface(headers: Record<string, string>): Promise<Response>[] {
  const json = { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  return [
    fetch(`${shared.s.url}/api/v1/credits`, { headers }),
    fetch(`${shared.s.url}/api/v1/videos/${VIDEO}/frame?t=1`, { headers }),
    fetch(`${shared.s.url}/api/v1/videos/${VIDEO}/subtitles`, { headers }),
    fetch(`${shared.s.url}/trpc/credits.get?input=%7B%7D`, { headers }),
    fetch(`${shared.s.url}/mcp`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    }),
  ];
}

describe('the Bearer challenge', () => {
  it('every 401 carries WWW-Authenticate: Bearer with the realm, and invalid_token when a key was sent', async () => {
    for (const [headers, challenge] of [
      [{}, BARE],
      [{ authorization: 'Bearer sk_wrongwrongwrongwrongwrongwrong' }, INVALID],
      [{ 'x-api-key': 'sk_wrongwrongwrongwrongwrongwrong' }, INVALID],
      [{ authorization: 'Basic dXNlcjpwYXNz' }, INVALID],
    ] as [Record<string, string>, string][]) {
      for (const res of await Promise.all(everySurface(headers))) {
        expect(res.status, res.url).toBe(401);
        // /mcp adds where its OAuth metadata is (RFC 9728), so MCP clients can start sign-in from the challenge.
        const mcp = new URL(res.url).pathname === '/mcp';
        const expected = mcp
          ? `${challenge}, resource_metadata="${new URL('/.well-known/oauth-protected-resource/mcp', res.url)}", scope="mcp"`
          : challenge;
        expect(res.headers.get('www-authenticate'), `${res.url} ${JSON.stringify(headers)}`).toBe(expected);
        await res.body?.cancel();
      }
    }
  });
});

describe('Retry-After', () => {
  it('every 429 carries Retry-After equal to RateLimit-Reset, on every surface and file route', async () => {
    const { key: limited } = await shared.s.newKey({ rateLimit: 1 });
    await (await fetch(`${shared.s.url}/api/v1/credits`, { headers: auth(limited) })).body?.cancel();
    for (const res of await Promise.all(everySurface(auth(limited)).slice(0, 4))) {
      expect(res.status, res.url).toBe(429);
      expect(Number(res.headers.get('retry-after')), res.url).toBeGreaterThanOrEqual(1);
      expect(res.headers.get('retry-after'), res.url).toBe(res.headers.get('ratelimit-reset'));
      await res.body?.cancel();
    }
  });

  describe('503', () => {
    let busy: TestServer;
    let busyKey: string;
    beforeAll(async () => {
      // Every job refused the way a saturated queue refuses it, with its own retry hint.
      const queue = {
        start: async () => {},
        work: async () => {},
        stop: async () => {},
        isRunning: () => false,
        run: async () => {
          throw new ServiceError('SERVICE_BUSY', 'Extraction capacity is saturated; retry shortly', 7);
        },
      } as unknown as JobQueue;
      busy = await startTestServer({}, { queue, youtube: fakeVideoSource() });
      ({ key: busyKey } = await busy.newKey({ credits: 10 }));
    });
    afterAll(() => busy?.close());

    it('every 503 carries the error’s own Retry-After: REST, the file routes and tRPC', async () => {
      const headers = { authorization: `Bearer ${busyKey}` };
      for (const res of [
        await fetch(`${busy.url}/api/v1/videos/${VIDEO}`, { headers }),
        await fetch(`${busy.url}/api/v1/subtitles`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ videoId: VIDEO }),
        }),
        await fetch(`${busy.url}/api/v1/videos/${VIDEO}/subtitles?format=vtt`, { headers }),
        await fetch(`${busy.url}/trpc/videos.info?input=${encodeURIComponent(JSON.stringify({ videoId: VIDEO }))}`, {
          headers,
        }),
      ]) {
        expect(res.status, res.url).toBe(503);
        expect(res.headers.get('retry-after'), res.url).toBe('7');
        const body: any = await res.json();
        expect(body.error.code === 'SERVICE_BUSY' || body.error.data?.code === 'SERVICE_BUSY', res.url).toBe(true);
      }
    });
  });
});

describe('tRPC over HTTP', () => {
  it('PUT and DELETE on a procedure are 405 with Allow, in tRPC’s error shape', async () => {
    for (const [method, path, allow] of [
      ['PUT', 'credits.get', 'GET'],
      ['DELETE', 'credits.get', 'GET'],
      ['PUT', 'subtitles.get', 'POST'],
      ['DELETE', 'subtitles.get', 'POST'],
      ['GET', 'subtitles.get', 'POST'],
    ]) {
      for (const body of [undefined, '{}']) {
        const headers = { ...auth(), ...(body ? { 'content-type': 'application/json' } : {}) };
        const res = await fetch(`${shared.s.url}/trpc/${path}`, {
          method,
          headers,
          body: method === 'GET' ? undefined : body,
        });
        expect(res.status, `${method} ${path} ${body}`).toBe(405);
        expect(res.headers.get('allow')).toBe(allow);
        expect(res.headers.get('content-type')).toContain('application/json');
        const json: any = await res.json();
        expect(json.error).toMatchObject({
          code: -32005,
          message: expect.any(String),
          data: { code: 'METHOD_NOT_ALLOWED', httpStatus: 405 },
        });
      }
    }
  });

  it('an oversize body is 413 in tRPC’s shape', async () => {
    const res = await fetch(`${shared.s.url}/trpc/subtitles.get`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ videoId: 'x'.repeat(100_000) }),
    });
    expect(res.status).toBe(413);
    expect((await res.json()).error).toMatchObject({
      code: -32013,
      data: { code: 'PAYLOAD_TOO_LARGE', httpStatus: 413 },
    });
  });

  it('a query whose input is all optional works without ?input', async () => {
    const res = await fetch(`${shared.s.url}/trpc/credits.get`, { headers: auth() });
    expect(res.status).toBe(200);
    expect((await res.json()).result.data.balance).toBe(100);
    // The tRPC client sends no input when none is given.
    expect(
      (
        await (
          trpcClient(shared.s.url, shared.key).credits.get.query as unknown as () => Promise<{ balance: number }>
        )()
      ).balance,
    ).toBe(100);
    expect((await trpcClient(shared.s.url, shared.key).articles.search.query({})).total).toBe(0);
  });

  it('401 and 429 carry the same headers as REST', async () => {
    const refused = await fetch(`${shared.s.url}/trpc/credits.get`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe(BARE);
    const { key: limited } = await shared.s.newKey({ rateLimit: 1 });
    await (await fetch(`${shared.s.url}/trpc/credits.get`, { headers: auth(limited) })).body?.cancel();
    const rest = await fetch(`${shared.s.url}/api/v1/credits`, { headers: auth(limited) });
    const trpc = await fetch(`${shared.s.url}/trpc/credits.get`, { headers: auth(limited) });
    for (const h of ['ratelimit-limit', 'ratelimit-remaining'])
      expect(trpc.headers.get(h), h).toBe(rest.headers.get(h));
    // Both carry Retry-After, each equal to its own RateLimit-Reset (a second may pass between the two requests).
    for (const res of [rest, trpc]) expect(res.headers.get('retry-after')).toBe(res.headers.get('ratelimit-reset'));
    expect(trpc.status).toBe(429);
  });
});

/** A raw HTTP/1.1 request (fetch refuses some of what we need to send). */
function raw(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${shared.s.url}${path}`, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('limits on the request line', () => {
  it('a URL over 16 KiB is 414 in the spec shape with x-request-id, on every surface', async () => {
    const long = 'q'.repeat(17 * 1024);
    for (const path of [
      `/api/v1/articles?query=${long}`,
      `/trpc/credits.get?input=${long}`,
      `/mcp?${long}`,
      `/nowhere?${long}`,
    ]) {
      const r = await raw(path, auth());
      expect(r.status, path.slice(0, 20)).toBe(414);
      expect(r.headers['x-request-id']).toMatch(/^req_/);
      const json = JSON.parse(r.body);
      expect(json.error.code === 'URI_TOO_LONG' || json.error.data?.code === 'URI_TOO_LONG').toBe(true);
    }
  });

  it('headers beyond what the server reads are 431 in the spec shape with x-request-id, not an empty answer', async () => {
    const r = await raw('/api/v1/credits', { ...auth(), 'x-padding': 'p'.repeat(40 * 1024) });
    expect(r.status).toBe(431);
    expect(r.headers['x-request-id']).toMatch(/^req_/);
    expect(JSON.parse(r.body)).toEqual({ error: { code: 'HEADERS_TOO_LARGE', message: expect.any(String) } });
  });
});
