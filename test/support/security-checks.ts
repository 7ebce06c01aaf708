// One shared set of security and money checks for every keyed procedure, run on all three surfaces
// (REST over HTTP, tRPC over HTTP, MCP through the SDK's real client). A feature adds itself with one line:
//
//   describeKeyedProcedureChecks('videos.info', () => server, { input: { videoId: 'x' }, authed: { status: 400, code: 'INVALID_REQUEST' } });
//
// REST method and path, the tRPC path and type, and the MCP tool name are read from the procedure's own meta,
// so the checks follow the contract rather than a copy of it.
import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { listProcedures } from '../../src/bridges/procedures.ts';
import type { ErrorCode } from '../../src/domain/errors.ts';
import { ERROR_TABLE } from '../../src/router/error-table.ts';
import { appRouter } from '../../src/router/index.ts';
import { expectMatchesOpenApi } from './openapi-responses.ts';
import type { TestServer } from './test-server.ts';
import { getCredits, revokeApiKey } from './stores.ts';

type Surface = 'rest' | 'trpc' | 'mcp';
const SURFACES: Surface[] = ['rest', 'trpc', 'mcp'];

type Input = Record<string, unknown>;

export interface KeyedProcedureCall {
  /**
   * The procedure's input (tRPC and MCP take it as is; REST gets path parameters filled from it, and the rest as
   * query parameters for GET or the JSON body otherwise). A function is called for every request: priced operations
   * whose results are cached need a fresh input each time (a cache hit is free).
   */
  input: Input | (() => Input);
  /**
   * What an authenticated, affordable call answers. Default 200 (an error code when the status is >= 400).
   * `'answered'`: whatever the procedure makes of the input, as long as the key, its limit and the balance let it
   * through and nothing failed (the default checks of describeRemainingProcedures, which send `{}`).
   */
  authed?: { status: number; code?: ErrorCode } | 'answered';
  /** What REST answers an authenticated call instead of 200: 202 for an operation that creates work (batches). */
  restStatus?: number;
  /** Credits the operation costs on a cache miss; when set, the insufficient-credits check runs. */
  price?: number;
  /** Surfaces the procedure is not on (for example an operation without an MCP tool). */
  skip?: Surface[];
}

/** Headers carrying a key, or deliberately broken ones. */
export type Auth = { key: string; form?: 'bearer' | 'x-api-key' } | { headers: Record<string, string> } | null;

/** What a surface answered, normalized: `error` is the spec's {code, message} when it failed. */
export interface Outcome {
  surface: Surface;
  /** HTTP status (MCP tool results: 200 for success, the table's status for an isError result). */
  status: number;
  headers: Headers;
  error?: { code: string; message: string };
  data?: unknown;
}

const randomKey = () => `sk_${randomBytes(24).toString('base64url').replace(/[-_]/g, 'A')}`;

function authHeaders(auth: Auth): Record<string, string> {
  if (!auth) return {};
  if ('headers' in auth) return auth.headers;
  return auth.form === 'x-api-key' ? { 'x-api-key': auth.key } : { authorization: `Bearer ${auth.key}` };
}

function procedureOf(name: string) {
  const entry = listProcedures(appRouter).find((e) => e.path === name);
  if (!entry) throw new Error(`No procedure ${name} in the router`);
  return { ...entry, type: (entry.procedure._def as unknown as { type: 'query' | 'mutation' }).type };
}

/** The REST request for an input, from the procedure's meta.openapi. */
function restRequestFor(
  name: string,
  input: Input,
): { method: string; path: string; query: Record<string, string>; body?: unknown } {
  const { meta } = procedureOf(name);
  if (!meta.openapi) throw new Error(`${name} has no REST route`);
  const rest: Input = { ...input };
  const path = meta.openapi.path.replace(/\{(\w+)\}/g, (_, p: string) => {
    const v = rest[p];
    delete rest[p];
    return encodeURIComponent(String(v));
  });
  const method = meta.openapi.method.toUpperCase();
  if (method === 'GET' || method === 'DELETE') {
    return { method, path, query: Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, String(v)])) };
  }
  return { method, path, query: {}, body: rest };
}

/** Asserts the spec's error body exactly: `{"error":{"code","message"}}`, nothing else, a non-empty message. */
export function expectErrorBody(body: unknown, code: string) {
  expect(body).toEqual({ error: { code, message: expect.any(String) } });
  expect((body as { error: { message: string } }).error.message.length).toBeGreaterThan(0);
}

/** What /mcp refuses at the HTTP level: a JSON-RPC error whose `data.code` is the spec's code. */
export function expectMcpErrorBody(body: unknown, code: string, id: string | number | null = null) {
  expect(body).toEqual({
    jsonrpc: '2.0',
    id,
    error: {
      code: expect.any(Number),
      message: expect.any(String),
      data: expect.objectContaining({ code, httpStatus: expect.any(Number) }),
    },
  });
}

/** tRPC's error shape, with the spec's code in `data.code`. */
export function expectTrpcErrorBody(body: any, code: string, status: number) {
  expect(body.error).toMatchObject({
    message: expect.any(String),
    code: expect.any(Number),
    data: { code, httpStatus: status },
  });
}

async function callRest(base: string, name: string, input: Input, auth: Auth): Promise<Outcome> {
  const req = restRequestFor(name, input);
  const url = new URL(`/api/v1${req.path}`, base);
  for (const [k, v] of Object.entries(req.query)) url.searchParams.set(k, v);
  const headers: Record<string, string> = { ...authHeaders(auth) };
  if (req.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, {
    method: req.method,
    headers,
    body: req.body === undefined ? undefined : JSON.stringify(req.body),
  });
  const text = await res.text();
  await expectMatchesOpenApi(base, req.method, res, text);
  const json = JSON.parse(text);
  if (res.status >= 400) {
    expectErrorBody(json, json?.error?.code);
    return { surface: 'rest', status: res.status, headers: res.headers, error: json.error };
  }
  return { surface: 'rest', status: res.status, headers: res.headers, data: json };
}

async function callTrpc(base: string, name: string, input: Input, auth: Auth): Promise<Outcome> {
  const { type } = procedureOf(name);
  const headers = authHeaders(auth);
  const res =
    type === 'query'
      ? await fetch(`${base}/trpc/${name}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers })
      : await fetch(`${base}/trpc/${name}`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify(input),
        });
  const json = await res.json();
  if (json.error) {
    // tRPC keeps its own envelope (its client reads it); the spec's code rides in data.code with the same status.
    expect(json.error.data).toMatchObject({ code: expect.any(String), httpStatus: res.status });
    expect(typeof json.error.message).toBe('string');
    return {
      surface: 'trpc',
      status: res.status,
      headers: res.headers,
      error: { code: json.error.data.code, message: json.error.message },
    };
  }
  return { surface: 'trpc', status: res.status, headers: res.headers, data: json.result.data };
}

/** Raw JSON-RPC to /mcp, for requests the bridge must refuse before the MCP transport. */
export async function rawMcp(
  base: string,
  headers: Record<string, string>,
  body: unknown = { jsonrpc: '2.0', id: 1, method: 'tools/list' },
) {
  return fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
}

/** The SDK's client; `lastHeaders()` are the HTTP headers of the latest response (rate-limit headers ride there). */
export async function connectMcp(
  base: string,
  headers: Record<string, string>,
): Promise<Client & { lastHeaders(): Headers; lastStatus(): number; lastErrorBody(): Promise<any> }> {
  const client = new Client({ name: 'subtext-security-checks', version: '1.0.0' });
  let last = new Response(null);
  let lastBody: Promise<any> = Promise.resolve(undefined);
  const recordingFetch = async (url: string | URL, init?: RequestInit) => {
    const res = await fetch(url, init);
    last = res;
    lastBody =
      res.status >= 400
        ? res
            .clone()
            .json()
            .catch(() => undefined)
        : Promise.resolve(undefined);
    return res;
  };
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', base), { requestInit: { headers }, fetch: recordingFetch }),
  );
  return Object.assign(client, {
    lastHeaders: () => last.headers,
    lastStatus: () => last.status,
    lastErrorBody: () => lastBody,
  });
}

async function callMcp(base: string, name: string, input: Input, auth: Auth): Promise<Outcome> {
  const tool = procedureOf(name).meta.mcp?.name;
  if (!tool) throw new Error(`${name} has no MCP tool`);
  const headers = authHeaders(auth);
  const refused = async (): Promise<Outcome> => {
    // The bridge refuses before the transport, so one raw request shows the whole answer (and runs nothing).
    const res = await rawMcp(base, headers, {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: tool, arguments: input },
    });
    const json = await res.json();
    if (res.status !== 401)
      throw new Error(`MCP refused the connection but answered ${res.status}: ${JSON.stringify(json)}`);
    // The body was read: the 401 names the request it refuses.
    expectMcpErrorBody(json, 'INVALID_API_KEY', 1);
    return {
      surface: 'mcp',
      status: 401,
      headers: res.headers,
      error: { code: json.error.data.code, message: json.error.message },
    };
  };
  if (!auth) return refused();
  let client: Awaited<ReturnType<typeof connectMcp>>;
  try {
    client = await connectMcp(base, headers);
  } catch {
    return refused();
  }
  try {
    let result: any;
    try {
      result = await client.callTool({ name: tool, arguments: input });
    } catch (err) {
      // Refused at the HTTP level (a rate-limited call is an HTTP 429): the JSON-RPC error carries the spec's code.
      const body = await client.lastErrorBody();
      if (!body) throw err;
      expectMcpErrorBody(body, body.error?.data?.code, body.id);
      expect(typeof body.id).toBe('number'); // the id of the tools/call it answers
      expect(client.lastStatus()).toBe(body.error.data.httpStatus);
      return {
        surface: 'mcp',
        status: client.lastStatus(),
        headers: client.lastHeaders(),
        error: { code: body.error.data.code, message: body.error.message },
      };
    }
    if (result.isError) {
      expect(result.content).toHaveLength(1);
      expect(result.content[0].type).toBe('text');
      const body = JSON.parse(result.content[0].text);
      expectErrorBody(body, body?.error?.code);
      const code = body.error.code as ErrorCode;
      return {
        surface: 'mcp',
        status: ERROR_TABLE[code]?.status ?? 500,
        headers: client.lastHeaders(),
        error: body.error,
      };
    }
    return {
      surface: 'mcp',
      status: 200,
      headers: client.lastHeaders(),
      data: result.structuredContent ?? result.content,
    };
  } finally {
    await client.close();
  }
}

/** Calls a procedure on one surface. */
function callSurface(surface: Surface, s: TestServer, name: string, input: Input, auth: Auth): Promise<Outcome> {
  if (surface === 'rest') return callRest(s.url, name, input, auth);
  if (surface === 'trpc') return callTrpc(s.url, name, input, auth);
  return callMcp(s.url, name, input, auth);
}

/**
 * Runs a sequence that must fall inside one fixed one-minute rate-limit window, again if a minute boundary passed
 * while it ran: on a loaded machine a few slow calls can straddle one, and the next window rightly starts a fresh
 * count. The servers count by this machine's clock, so the test's own clock tells.
 */
async function inOneWindow(run: () => Promise<[Outcome, Outcome]>): Promise<[Outcome, Outcome]> {
  const minute = () => Math.floor(Date.now() / 60_000);
  for (let attempt = 1; ; attempt++) {
    const started = minute();
    const outcomes = await run();
    if (minute() === started || attempt === 3) return outcomes;
  }
}

/** The outcome is the spec's error `code` with the table's status. */
function expectError(o: Outcome, code: ErrorCode) {
  expect(o.error, `${o.surface}: expected ${code}, got status ${o.status}`).toMatchObject({ code });
  expect(o.status, o.surface).toBe(ERROR_TABLE[code].status);
}

const covered = new Set<string>();

/**
 * A test that fails while some REST or MCP procedure has no describeKeyedProcedureChecks call; call it after them.
 * (Website procedures, authenticated by session rather than key, are not part of the public API and not listed.)
 */
export function expectEveryProcedureCovered(coveredElsewhere: string[] = []) {
  it('every REST and MCP procedure gets the shared checks', () => {
    const uncovered = listProcedures(appRouter)
      .filter((e) => (e.meta.openapi || e.meta.mcp) && !covered.has(e.path) && !coveredElsewhere.includes(e.path))
      .map((e) => e.path);
    expect(uncovered, 'add describeKeyedProcedureChecks(...) lines for these').toEqual([]);
  });
}

/**
 * The shared checks, with input `{}`, for every REST or MCP procedure no line above named and not in
 * `coveredElsewhere`: a new procedure is checked without a line of its own (a priced one adds a line with its price,
 * for the 402 check). Call it after the file's describeKeyedProcedureChecks lines.
 */
export function describeRemainingProcedures(server: () => TestServer, coveredElsewhere: string[]) {
  for (const e of listProcedures(appRouter)) {
    if (!(e.meta.openapi || e.meta.mcp) || covered.has(e.path) || coveredElsewhere.includes(e.path)) continue;
    const skip: Surface[] = [...(e.meta.openapi ? [] : ['rest' as const]), ...(e.meta.mcp ? [] : ['mcp' as const])];
    describeKeyedProcedureChecks(e.path, server, { input: {}, authed: 'answered', skip });
  }
}

/**
 * Generates the shared checks for one keyed procedure: no key, malformed Authorization, unknown, revoked and
 * expired keys, both header forms, the rate limit, and (for priced operations) insufficient credits.
 * `server` is read when the tests run, so it may be started in the caller's beforeAll.
 */
export function describeKeyedProcedureChecks(name: string, server: () => TestServer, call: KeyedProcedureCall) {
  procedureOf(name); // fails collection at once for a name the router does not have
  covered.add(name);
  const authed = call.authed ?? { status: 200 };
  const surfaces = SURFACES.filter((x) => !call.skip?.includes(x));
  const input = () => (typeof call.input === 'function' ? call.input() : call.input);
  // Enough for every authed call a check makes; the insufficient-credits check makes its own poor account.
  const newKey = (o: { rateLimit?: number } = {}) => server().newKey({ ...o, credits: (call.price ?? 0) * 20 });

  const expectAuthed = (o: Outcome) => {
    if (authed === 'answered') {
      expect(o.status, `${o.surface}: ${JSON.stringify(o.error)}`).toBeLessThan(500);
      expect(['INVALID_API_KEY', 'RATE_LIMITED', 'INSUFFICIENT_CREDITS'], o.surface).not.toContain(o.error?.code);
    } else if (authed.status >= 400) expectError(o, authed.code!);
    else {
      expect(o.error, `${o.surface}: ${JSON.stringify(o.error)}`).toBeUndefined();
      if (o.surface !== 'mcp')
        expect(o.status).toBe(o.surface === 'rest' ? (call.restStatus ?? authed.status) : authed.status);
    }
  };

  describe(`${name}: keyed-procedure security checks`, () => {
    describe.each(surfaces)('on %s', (surface) => {
      const refuse = async (auth: Auth) => {
        const o = await callSurface(surface, server(), name, input(), auth);
        expectError(o, 'INVALID_API_KEY');
        // Every 401 challenges (RFC 6750); a refused key is named an invalid token.
        const challenge = o.headers.get('www-authenticate');
        expect(challenge, surface).toMatch(/^Bearer realm="subtext"/);
        const sent = auth !== null && ('key' in auth || Object.keys(auth.headers).length > 0);
        expect(challenge!.includes('error="invalid_token"'), `${surface} ${JSON.stringify(auth)}`).toBe(sent);
      };

      it('refuses a request without a key with 401 INVALID_API_KEY', async () => {
        await refuse(null);
      });

      it('refuses a malformed Authorization header', async () => {
        const { key } = await newKey();
        for (const authorization of [
          `Basic ${Buffer.from('user:pass').toString('base64')}`,
          'Bearer',
          'Bearer ',
          `Bearer ${key} extra`,
          key,
          `Token ${key}`,
        ]) {
          await refuse({ headers: { authorization } });
        }
        await refuse({ headers: { 'x-api-key': '' } });
      });

      it('refuses an unknown key, including a near miss of a real one', async () => {
        const { key } = await newKey();
        await refuse({ key: randomKey() });
        await refuse({ key: key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a') });
        await refuse({ key: key.toUpperCase() });
        await refuse({ key: `${key}x` });
      });

      it('refuses a revoked key at once', async () => {
        const { key, keyId, accountId } = await newKey();
        expectAuthed(await callSurface(surface, server(), name, input(), { key }));
        expect(await revokeApiKey(server().deps.sql, accountId, keyId)).toBe(true);
        await refuse({ key });
        await refuse({ key, form: 'x-api-key' });
      });

      it('refuses an expired key', async () => {
        const { key, keyId } = await newKey();
        expectAuthed(await callSurface(surface, server(), name, input(), { key }));
        await server().deps.sql`update api_keys set expires_at = now() - interval '1 second' where id = ${keyId}`;
        await refuse({ key });
        await refuse({ key, form: 'x-api-key' });
      });

      it('accepts both header forms (Authorization: Bearer and x-api-key)', async () => {
        const { key } = await newKey();
        expectAuthed(await callSurface(surface, server(), name, input(), { key, form: 'bearer' }));
        expectAuthed(await callSurface(surface, server(), name, input(), { key, form: 'x-api-key' }));
        // The auth scheme is case-insensitive (RFC 9110 11.1).
        expectAuthed(
          await callSurface(surface, server(), name, input(), { headers: { authorization: `bearer ${key}` } }),
        );
      });

      it('answers 429 RATE_LIMITED past the key’s limit, with Retry-After and RateLimit headers', async () => {
        const [first, third] = await inOneWindow(async () => {
          const { key } = await newKey({ rateLimit: 2 });
          const first = await callSurface(surface, server(), name, input(), { key });
          expectAuthed(first);
          expectAuthed(await callSurface(surface, server(), name, input(), { key }));
          return [first, await callSurface(surface, server(), name, input(), { key })];
        });
        expectError(third, 'RATE_LIMITED');
        expect(first.headers.get('ratelimit-limit')).toBe('2');
        expect(first.headers.get('ratelimit-remaining')).toBe('1');
        expect(third.headers.get('ratelimit-limit')).toBe('2');
        expect(third.headers.get('ratelimit-remaining')).toBe('0');
        const reset = Number(third.headers.get('ratelimit-reset'));
        expect(reset).toBeGreaterThanOrEqual(1);
        expect(reset).toBeLessThanOrEqual(60);
        // Every surface answers an HTTP 429 with Retry-After (MCP: a JSON-RPC error, so clients back off).
        expect(third.headers.get('retry-after'), surface).toBe(String(reset));
      });

      if (call.price) {
        it(`refuses with 402 INSUFFICIENT_CREDITS when the balance is below the price (${call.price}), charging nothing`, async () => {
          const s = server();
          const allowance = s.deps.config.DAILY_FREE_CREDITS;
          const purchased = call.price! - 1 - allowance;
          if (purchased < 0)
            throw new Error(
              `the free allowance (${allowance}) alone pays for ${name}; start the server with a smaller DAILY_FREE_CREDITS`,
            );
          const { key, accountId } = await s.newKey({ credits: purchased });
          const before = await getCredits(s.deps.sql, accountId, allowance);
          expect(before.balance).toBe(call.price! - 1);
          expectError(await callSurface(surface, s, name, input(), { key }), 'INSUFFICIENT_CREDITS');
          expect(await getCredits(s.deps.sql, accountId, allowance)).toEqual(before);
          const charges = await s.deps
            .sql`select 1 from credit_ledger where account_id = ${accountId} and kind = 'charge'`;
          expect(charges).toHaveLength(0);
        });
      }
    });

    if (surfaces.includes('mcp')) {
      it('MCP refuses a bad key with HTTP 401 and a JSON-RPC error before the transport, on every MCP method', async () => {
        const refused: Record<string, string>[] = [
          {},
          { authorization: 'Basic abc' },
          { authorization: `Bearer ${randomKey()}` },
        ];
        for (const headers of refused) {
          for (const method of ['initialize', 'tools/list', 'tools/call']) {
            const res = await rawMcp(server().url, headers, {
              jsonrpc: '2.0',
              id: 1,
              method,
              params: method === 'tools/call' ? { name: procedureOf(name).meta.mcp!.name, arguments: input() } : {},
            });
            expect(res.status).toBe(401);
            expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="subtext"/);
            expectMcpErrorBody(await res.json(), 'INVALID_API_KEY', 1);
          }
        }
        // The SDK client surfaces the refusal when it connects.
        await expect(connectMcp(server().url, { authorization: `Bearer ${randomKey()}` })).rejects.toThrow();
      });
    }

    if (surfaces.length > 1) {
      it('shares one rate-limit counter across surfaces', async () => {
        const [, last] = await inOneWindow(async () => {
          const { key } = await newKey({ rateLimit: surfaces.length - 1 });
          const outcomes = [];
          for (const surface of surfaces.slice(0, -1))
            outcomes.push(await callSurface(surface, server(), name, input(), { key }));
          outcomes.forEach(expectAuthed);
          return [outcomes[0]!, await callSurface(surfaces.at(-1)!, server(), name, input(), { key })];
        });
        expectError(last, 'RATE_LIMITED');
      });
    }
  });
}
