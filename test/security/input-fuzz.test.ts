// Finding 8 of issue 23, and the fuzzer the issue asks for: hostile input to every route and tool never gets a 5xx
// or an error-level log line (bad input is the caller's fault, not an incident). Routes come from the served
// OpenAPI document, plus the OAuth endpoints, every tRPC procedure and every MCP tool; the same JSON body gets the
// same verdict on REST, tRPC and MCP. Fixed seeds and a modest number of runs (FUZZ_RUNS raises them).
import { Agent, request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listProcedures } from '../../src/bridges/procedures.ts';
import { appRouter } from '../../src/router/index.ts';
import { captureLogger } from '../support/capture-log.ts';
import { fakeVideoSource } from '../support/fake-video-source.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 8);
const MCP_ACCEPT = 'application/json, text/event-stream';

// Query keys and raw (already percent-encoded) values that broke or could break a reader of the query string.
const HOSTILE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'a[b]',
  'a[]',
  '__proto__[x]',
  'constructor[prototype][x]',
  'k'.repeat(4000),
  '%E0%A4%A',
  '%FF',
  '%',
  '%00',
  '',
];
const HOSTILE_RAW_VALUES = [
  '%E0%A4%A',
  '%FF%FE',
  '%C0%80',
  '%ED%A0%80',
  '%',
  '%%',
  '%00',
  'a%00b',
  'x'.repeat(8000),
  '%F0%9F%98',
  '1e400',
  'NaN',
  '-1',
  '[]',
  '{}',
  'true',
];
const rawKey = fc.constantFrom(...HOSTILE_KEYS);
const rawValue = fc.oneof(
  fc.constantFrom(...HOSTILE_RAW_VALUES),
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
  fc.uint8Array({ maxLength: 12 }).map((b) => [...b].map((x) => `%${x.toString(16).padStart(2, '0')}`).join('')),
);
/** A query string of hostile keys and values, duplicates included. */
const rawQuery = (known: string[]) =>
  fc
    .array(fc.tuple(known.length ? fc.oneof(rawKey, fc.constantFrom(...known)) : rawKey, rawValue), {
      minLength: 1,
      maxLength: 5,
    })
    .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));
const rawSegment = fc.oneof(
  fc.constantFrom('%E0%A4%A', '%FF', '%00', '%2F..%2F', '__proto__', 'constructor', 'x'.repeat(3000), '%', '.'),
  fc.string({ maxLength: 20 }).map(encodeURIComponent),
);
const jsonish = fc.oneof(
  fc.constantFrom('', '\u0000', 'a\u0000b', '\uD800', '__proto__', 'x'.repeat(20_000), 'NaN', -1, 1e308, null),
  fc.string({ maxLength: 30 }),
  fc.integer(),
  fc.jsonValue({ maxDepth: 3 }),
);
const body = (known: string[]) =>
  fc.oneof(
    fc.dictionary(
      fc.oneof(fc.constantFrom(...known, '__proto__', 'constructor'), fc.string({ maxLength: 6 })),
      jsonish,
      { maxKeys: Math.max(1, known.length + 1) },
    ),
    fc.jsonValue({ maxDepth: 2 }),
  );

interface Answer {
  status: number;
  text: string;
  json: any;
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** One request with the target exactly as given (no normalisation by a URL parser). */
function send(
  base: string,
  method: string,
  target: string,
  headers: Record<string, string> = {},
  payload?: string | Buffer,
): Promise<Answer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, method, path: target, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: any;
        try {
          json = JSON.parse(text);
        } catch {}
        resolve({ status: res.statusCode ?? 0, text, json });
      });
    });
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

type Op = { parameters?: { name: string; in: string }[]; requestBody?: { content?: Record<string, any> } };

describe('fuzzing every input of every route and tool', { timeout: 120_000 }, () => {
  let s: TestServer;
  let key: string;
  let lines: string[];
  let doc: { paths: Record<string, Record<string, Op>> };
  const bad: string[] = [];

  beforeAll(async () => {
    const captured = captureLogger('warn');
    lines = captured.lines;
    s = await startTestServer({}, { youtube: fakeVideoSource(), log: captured.log });
    ({ key } = await s.newKey({ rateLimit: 1_000_000 }));
    doc = (await send(s.url, 'GET', '/api/v1/openapi.json')).json;
  });
  afterAll(async () => {
    agent.destroy();
    await s?.close();
  });

  /** The findings of one test, one line per distinct failure. */
  function findings(): string[] {
    const seen = new Map<string, string>();
    for (const b of bad.splice(0))
      seen.set(
        b
          .replace(/.*?-> /, '')
          .replace(/req_\w+|"time":\d+/g, '')
          .slice(0, 200),
        b,
      );
    return [...seen.values()];
  }
  /** A 5xx (but 501 LLM_NOT_CONFIGURED, this server's designed answer) or an error log line is a finding. */
  function judge(where: string, r: Answer): boolean {
    const errors = lines.filter((l) => (JSON.parse(l) as { level: number }).level >= 50);
    lines.length = 0;
    const designed = r.status === 501 && r.json?.error?.code === 'LLM_NOT_CONFIGURED';
    const fine = (r.status < 500 || designed) && errors.length === 0;
    if (!fine)
      bad.push(`${where.slice(0, 240)} -> ${r.status} ${r.text.slice(0, 160)} ${errors[0]?.slice(0, 300) ?? ''}`);
    return fine;
  }
  const auth = () => ({ authorization: `Bearer ${key}` });

  it('REST: hostile path parameters, query keys and values, and bodies on every operation', async () => {
    const ops = Object.entries(doc.paths).flatMap(([path, byMethod]) =>
      Object.entries(byMethod).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
    );
    expect(ops.length).toBeGreaterThan(10);
    for (const { path, method, op } of ops) {
      const known = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      const props = Object.keys(op.requestBody?.content?.['application/json']?.schema?.properties ?? {});
      const hasParams = path.includes('{');
      await fc
        .assert(
          fc.asyncProperty(rawSegment, rawQuery(known), body(props), async (segment, query, payload) => {
            const target = `/api/v1${path.replace(/\{[^{}]+\}/g, hasParams ? segment : '')}?${query}`;
            const json = method === 'GET' || method === 'DELETE' ? undefined : JSON.stringify(payload);
            const headers = json === undefined ? auth() : { ...auth(), 'content-type': 'application/json' };
            return judge(`${method} ${target} ${json ?? ''}`, await send(s.url, method, target, headers, json));
          }),
          { numRuns: RUNS, seed: 2301, endOnFailure: true },
        )
        .catch((e: unknown) => bad.push(`property: ${String(e).slice(0, 400)}`));
    }
    // Before authentication too: the same hostile query without a key.
    for (const { path } of ops.filter((o) => o.method === 'GET')) {
      for (const k of ['__proto__', 'constructor', 'toString', 'a[]', '%E0%A4%A', 'k'.repeat(4000)]) {
        const target = `/api/v1${path.replace(/\{[^{}]+\}/g, 'dQw4w9WgXcQ')}?${k}=1&${k}=%E0%A4%A`;
        judge(`GET ${target} (no key)`, await send(s.url, 'GET', target));
      }
    }
    expect(findings()).toEqual([]);
  });

  it('OAuth: hostile bytes in every parameter of /oauth/authorize, /oauth/register, /oauth/token, /oauth/revoke', async () => {
    const fields = [
      'response_type',
      'client_id',
      'redirect_uri',
      'code_challenge',
      'code_challenge_method',
      'state',
      'scope',
      'resource',
      'grant_type',
      'code',
      'code_verifier',
      'refresh_token',
      'token',
      'client_secret',
    ];
    const form = fc
      .array(fc.tuple(fc.oneof(fc.constantFrom(...fields), rawKey), rawValue), { minLength: 1, maxLength: 8 })
      .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));
    const clientMeta = fc.dictionary(
      fc.constantFrom('redirect_uris', 'client_name', 'grant_types', 'token_endpoint_auth_method', '__proto__'),
      fc.oneof(jsonish, fc.array(jsonish, { maxLength: 3 })),
    );
    await fc
      .assert(
        fc.asyncProperty(form, clientMeta, async (query, meta) => {
          const urlencoded = { 'content-type': 'application/x-www-form-urlencoded' };
          return (
            judge(`GET /oauth/authorize?${query}`, await send(s.url, 'GET', `/oauth/authorize?${query}`)) &&
            judge(`POST /oauth/authorize ${query}`, await send(s.url, 'POST', '/oauth/authorize', urlencoded, query)) &&
            judge(`POST /oauth/token ${query}`, await send(s.url, 'POST', '/oauth/token', urlencoded, query)) &&
            judge(`POST /oauth/revoke ${query}`, await send(s.url, 'POST', '/oauth/revoke', urlencoded, query)) &&
            judge(
              `POST /oauth/register ${JSON.stringify(meta)}`,
              await send(
                s.url,
                'POST',
                '/oauth/register',
                { 'content-type': 'application/json' },
                JSON.stringify(meta),
              ),
            )
          );
        }),
        { numRuns: RUNS * 4, seed: 2302, endOnFailure: true },
      )
      .catch((e: unknown) => bad.push(`property: ${String(e).slice(0, 400)}`));
    // Each field alone with each of the worst values, with and without a grant type that reads it.
    const worst = ['a%00b', '%FF%FE', '%E0%A4%A', '%', 'x'.repeat(6000), '__proto__'];
    for (const field of fields) {
      for (const v of worst) {
        for (const extra of ['', '&grant_type=authorization_code', '&grant_type=refresh_token']) {
          const query = `${field}=${v}${extra}&response_type=code&code_challenge_method=S256`;
          const urlencoded = { 'content-type': 'application/x-www-form-urlencoded' };
          judge(`GET /oauth/authorize?${query}`, await send(s.url, 'GET', `/oauth/authorize?${query}`));
          judge(`POST /oauth/token ${query}`, await send(s.url, 'POST', '/oauth/token', urlencoded, query));
          if (!extra)
            judge(`POST /oauth/revoke ${query}`, await send(s.url, 'POST', '/oauth/revoke', urlencoded, query));
        }
      }
    }
    // Raw bytes no client library would send: invalid UTF-8 and NUL in a form and a JSON body, and huge values.
    for (const payload of [
      Buffer.from([0x63, 0x6f, 0x64, 0x65, 0x3d, 0xff, 0xfe, 0x00]),
      Buffer.from(`grant_type=authorization_code&code=${'A'.repeat(60_000)}`),
      Buffer.from('{"redirect_uris":["\u0000"],"client_name":"\uD800"}'),
      Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0xff, 0x7d]),
    ]) {
      for (const [path, type] of [
        ['/oauth/token', 'application/x-www-form-urlencoded'],
        ['/oauth/authorize', 'application/x-www-form-urlencoded'],
        ['/oauth/register', 'application/json'],
      ] as const)
        judge(`POST ${path} raw`, await send(s.url, 'POST', path, { 'content-type': type }, payload));
    }
    expect(findings()).toEqual([]);
  });

  const procedures = listProcedures(appRouter);
  it('tRPC: hostile input to every procedure, as GET input= and as POST body', async () => {
    for (const p of procedures) {
      const def = p.procedure._def as unknown as { type: string };
      await fc
        .assert(
          fc.asyncProperty(body([]), rawValue, async (input, raw) => {
            const target = `/trpc/${p.path}`;
            if (def.type === 'query')
              return (
                judge(`GET ${target}?input=${raw}`, await send(s.url, 'GET', `${target}?input=${raw}`, auth())) &&
                judge(
                  `GET ${target} json`,
                  await send(s.url, 'GET', `${target}?input=${encodeURIComponent(JSON.stringify(input))}`, auth()),
                )
              );
            const headers = { ...auth(), 'content-type': 'application/json' };
            return judge(
              `POST ${target} ${JSON.stringify(input)}`,
              await send(s.url, 'POST', target, headers, JSON.stringify(input)),
            );
          }),
          { numRuns: RUNS, seed: 2303, endOnFailure: true },
        )
        .catch((e: unknown) => bad.push(`property: ${String(e).slice(0, 400)}`));
    }
    expect(findings()).toEqual([]);
  });

  it('MCP and REST and tRPC give the same verdict to the same arguments', async () => {
    const both = procedures.filter(
      (p) => p.meta.mcp && p.meta.openapi?.method === 'POST' && !p.meta.openapi.path.includes('{'),
    );
    expect(both.length).toBeGreaterThan(3);
    const mismatches: string[] = [];
    for (const p of both) {
      const props = Object.keys(
        doc.paths[p.meta.openapi!.path]?.post?.requestBody?.content?.['application/json']?.schema?.properties ?? {},
      );
      await fc
        .assert(
          fc.asyncProperty(body(props), async (args) => {
            if (!args || typeof args !== 'object' || Array.isArray(args)) return true;
            const json = JSON.stringify(args);
            const headers = { ...auth(), 'content-type': 'application/json' };
            const rest = await send(s.url, 'POST', `/api/v1${p.meta.openapi!.path}`, headers, json);
            const trpc = await send(s.url, 'POST', `/trpc/${p.path}`, headers, json);
            const mcp = await send(
              s.url,
              'POST',
              '/mcp',
              { ...headers, accept: MCP_ACCEPT },
              JSON.stringify({
                jsonrpc: '2.0',
                id: 1,
                method: 'tools/call',
                params: { name: p.meta.mcp!.name, arguments: args },
              }),
            );
            const fine =
              judge(`REST ${p.path} ${json}`, rest) && judge(`tRPC ${p.path}`, trpc) && judge(`MCP ${p.path}`, mcp);
            const restCode = rest.status < 400 ? 'ok' : rest.json?.error?.code;
            const trpcCode = trpc.status < 400 ? 'ok' : trpc.json?.error?.data?.code;
            const result = mcp.json?.result;
            const mcpCode = result?.isError
              ? JSON.parse(result.content[0].text).error.code
              : result
                ? 'ok'
                : // A request the edge refuses (text that is not valid Unicode) is a JSON-RPC error naming the code.
                  (mcp.json?.error?.data?.code ?? `rpc ${mcp.json?.error?.code}`);
            if (!(restCode === trpcCode && trpcCode === mcpCode))
              mismatches.push(`${p.path} ${json.slice(0, 200)}: REST ${restCode}, tRPC ${trpcCode}, MCP ${mcpCode}`);
            return fine;
          }),
          { numRuns: RUNS, seed: 2304, endOnFailure: true },
        )
        .catch((e: unknown) => bad.push(`property: ${String(e).slice(0, 400)}`));
    }
    expect(findings()).toEqual([]);
    expect(mismatches).toEqual([]);
  });
});
