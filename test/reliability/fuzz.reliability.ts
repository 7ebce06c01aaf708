// Bad input: property-based fuzzing (fast-check) of every REST route and MCP tool of the router, from each
// procedure's own input schema (valid-shaped values mixed with junk), then hand-picked hostile bodies. Never a 5xx
// (but 501 LLM_NOT_CONFIGURED, the designed answer of a server without an LLM), always the error shape on 4xx,
// never a charge (the key has no credits and no free allowance).
import fc from 'fast-check';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listProcedures } from '../../src/bridges/procedures.ts';
import { appRouter } from '../../src/router/index.ts';
import { fakeVideoSource } from '../support/fake-video-source.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { call, isErrorShape, note, relDatabase } from './support.ts';

const RUNS_REST = Number(process.env.FUZZ_RUNS ?? 150);
const RUNS_MCP = Math.ceil(RUNS_REST / 2);
const MCP_ACCEPT = { accept: 'application/json, text/event-stream' };

/** Property names of a zod object schema (the procedures' inputs are objects). */
function keysOf(schema: unknown): string[] {
  const s = schema as z.ZodType | undefined;
  if (!s) return [];
  const js = z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, unknown> };
  return Object.keys(js.properties ?? {});
}

const plausible = fc.oneof(
  fc.constantFrom(
    'dQw4w9WgXcQ',
    'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    'https://youtu.be/dQw4w9WgXcQ?t=30',
    'en',
    'pt-BR',
    'zz-ZZ-x',
    'short',
    'medium',
    'long',
    'education',
    'job_0000',
    'art_0000',
  ),
  fc.integer({ min: -10, max: 20_000 }),
  fc.double({ noNaN: false }),
  fc.boolean(),
  fc.array(fc.double(), { maxLength: 30 }),
);
const hostile = fc.oneof(
  fc.constantFrom(
    'NaN',
    'Infinity',
    '-Infinity',
    '-1',
    '1e400',
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\uFEFF',
    '\uD800',
    "' or 1=1 --",
    '../../etc/passwd',
    '%00',
    '{{7*7}}',
    '<script>',
    '__proto__',
    'constructor',
  ),
  fc.string({ maxLength: 300 }),
  fc.string({ unit: 'grapheme', maxLength: 50 }),
  fc.jsonValue({ maxDepth: 4 }),
  fc.constant('x'.repeat(5000)),
  fc.constant(Array.from({ length: 2000 }, (_, i) => i)),
);
const value = fc.oneof({ weight: 3, arbitrary: plausible }, { weight: 2, arbitrary: hostile });

function inputFor(keys: string[]) {
  const named = keys.length
    ? fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: keys.length })
    : fc.constant({});
  return fc.oneof(
    {
      weight: 8,
      arbitrary: fc
        .tuple(named, fc.dictionary(fc.string({ maxLength: 8 }), value, { maxKeys: 2 }))
        .map(([a, b]) => ({ ...b, ...a })),
    },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  );
}

describe('fuzzing every REST route and MCP tool', () => {
  let s: TestServer;
  let db: Awaited<ReturnType<typeof relDatabase>>;
  let key: string;
  let accountId: string;
  const tally = new Map<string, number>();
  const bad: string[] = [];
  const count = (k: string) => tally.set(k, (tally.get(k) ?? 0) + 1);
  beforeAll(async () => {
    db = await relDatabase();
    s = await startTestServer({ DAILY_FREE_CREDITS: '0' }, { youtube: fakeVideoSource() }, { database: db });
    ({ key, accountId } = await s.newKey({ rateLimit: 1_000_000 }));
  });
  afterAll(async () => {
    await s?.close();
    await db?.drop();
  });

  const check = (where: string, r: { status: number; json: any; text: string }) => {
    const designed = r.status === 501 && r.json?.error?.code === 'LLM_NOT_CONFIGURED';
    count(`${r.status}`);
    // Node's HTTP parser itself refuses request lines and headers over 16 KiB with a bare 431, before the app runs.
    if (r.status === 431) return true;
    if ((r.status >= 500 && !designed) || (r.status >= 400 && !isErrorShape(r.json)))
      bad.push(`${where.slice(0, 200)} -> ${r.status} ${r.text.slice(0, 200)}`);
    return !(r.status >= 500 && !designed) && !(r.status >= 400 && !isErrorShape(r.json));
  };

  const procedures = listProcedures(appRouter);
  const restRoutes = procedures.filter((p) => p.meta.openapi);
  it(`REST: ${restRoutes.length} routes x ${RUNS_REST} generated inputs`, async () => {
    for (const p of restRoutes) {
      const { method, path } = p.meta.openapi!;
      const def = p.procedure._def as unknown as { inputs: unknown[] };
      const keys = keysOf(def.inputs[0]);
      await fc
        .assert(
          fc.asyncProperty(inputFor(keys), async (input) => {
            const rest: Record<string, unknown> =
              input && typeof input === 'object' && !Array.isArray(input) ? { ...(input as object) } : {};
            const url = path.replace(/\{(\w+)\}/g, (_, name: string) => {
              const v = rest[name];
              delete rest[name];
              return encodeURIComponent(String(v ?? 'x'));
            });
            let r;
            if (method === 'GET' || method === 'DELETE') {
              const q = new URLSearchParams(
                Object.entries(rest).map(([k, v]) => [k, typeof v === 'string' ? v : (JSON.stringify(v) ?? '')]),
              );
              r = await call(s.url, method, `/api/v1${url}?${q}`, { key });
            } else {
              r = await call(s.url, method, `/api/v1${url}`, {
                key,
                body: Array.isArray(input) || typeof input !== 'object' ? input : rest,
              });
            }
            return check(`${method} ${url} ${JSON.stringify(input).slice(0, 200)}`, r);
          }),
          { numRuns: RUNS_REST, endOnFailure: true, seed: 4242 },
        )
        .catch(() => {});
    }
    expect(bad.filter((b) => !b.startsWith('mcp '))).toEqual([]);
  });

  const tools = procedures.filter((p) => p.meta.mcp);
  it(`MCP: ${tools.length} tools x ${RUNS_MCP} generated arguments`, async () => {
    for (const p of tools) {
      const def = p.procedure._def as unknown as { inputs: unknown[] };
      const keys = keysOf(def.inputs[0]);
      await fc
        .assert(
          fc.asyncProperty(inputFor(keys), async (args) => {
            const r = await call(s.url, 'POST', '/mcp', {
              key,
              headers: MCP_ACCEPT,
              body: {
                jsonrpc: '2.0',
                id: 1,
                method: 'tools/call',
                params: { name: p.meta.mcp!.name, arguments: args },
              },
            });
            count(`mcp ${r.status}`);
            if (r.status >= 500) return check(`mcp ${p.meta.mcp!.name} ${JSON.stringify(args).slice(0, 150)}`, r);
            const result = r.json?.result;
            if (result?.isError) {
              const body = JSON.parse(result.content[0].text);
              const fine = isErrorShape(body) && body.error.code !== 'INTERNAL_ERROR';
              if (!fine)
                bad.push(
                  `mcp ${p.meta.mcp!.name} ${JSON.stringify(args).slice(0, 150)} -> ${result.content[0].text.slice(0, 200)}`,
                );
              return fine;
            }
            // A JSON-RPC error is fine for a malformed request (-32602), never -32603 "Internal error".
            if (r.json?.error?.code === -32603) {
              bad.push(`mcp ${p.meta.mcp!.name} ${JSON.stringify(args).slice(0, 150)} -> ${r.text.slice(0, 200)}`);
              return false;
            }
            return true;
          }),
          { numRuns: RUNS_MCP, endOnFailure: true, seed: 4343 },
        )
        .catch(() => {});
    }
    expect(bad.filter((b) => b.startsWith('mcp '))).toEqual([]);
  });

  it('hostile bodies: invalid UTF-8, BOM, NUL, deep nesting, oversized, huge arrays, NaN/Infinity/negative times', async () => {
    const cases: [
      string,
      string,
      string,
      { raw?: string | Buffer; body?: unknown; headers?: Record<string, string> },
    ][] = [
      [
        'invalid UTF-8',
        'POST',
        '/api/v1/subtitles',
        {
          raw: Buffer.from([
            0x7b, 0x22, 0x76, 0x69, 0x64, 0x65, 0x6f, 0x49, 0x64, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d,
          ]),
        },
      ],
      ['BOM before JSON', 'POST', '/api/v1/subtitles', { raw: '\uFEFF{"videoId":"dQw4w9WgXcQ"}' }],
      ['NUL in videoId', 'POST', '/api/v1/subtitles', { body: { videoId: 'dQw4w9\u0000XcQ' } }],
      ['NUL in lang', 'POST', '/api/v1/subtitles', { body: { videoId: 'dQw4w9WgXcQ', lang: 'en\u0000' } }],
      ['lone surrogate', 'POST', '/api/v1/subtitles', { raw: '{"videoId":"\\ud800\\ud800"}' }],
      ['deep array nesting (30,000)', 'POST', '/api/v1/subtitles', { raw: '['.repeat(30_000) + ']'.repeat(30_000) }],
      [
        'deep object nesting (5,000)',
        'POST',
        '/api/v1/frames',
        { raw: `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}` },
      ],
      [
        'oversized body (1 MiB)',
        'POST',
        '/api/v1/subtitles',
        { raw: JSON.stringify({ videoId: 'dQw4w9WgXcQ', pad: 'x'.repeat(1 << 20) }) },
      ],
      [
        '100,000 timestamps',
        'POST',
        '/api/v1/frames',
        { body: { videoId: 'dQw4w9WgXcQ', timestamps: Array.from({ length: 100_000 }, (_, i) => i) } },
      ],
      [
        '5,000 timestamps (under the body limit)',
        'POST',
        '/api/v1/frames',
        { body: { videoId: 'dQw4w9WgXcQ', timestamps: Array.from({ length: 5_000 }, (_, i) => i) } },
      ],
      ['t "NaN"', 'POST', '/api/v1/frames', { body: { videoId: 'dQw4w9WgXcQ', t: 'NaN' } }],
      ['t "Infinity"', 'POST', '/api/v1/frames', { body: { videoId: 'dQw4w9WgXcQ', t: 'Infinity' } }],
      ['t "-1"', 'POST', '/api/v1/frames', { body: { videoId: 'dQw4w9WgXcQ', t: '-1' } }],
      ['t 1e308', 'POST', '/api/v1/frames', { body: { videoId: 'dQw4w9WgXcQ', t: 1e308 } }],
      ['t as 1e400 literal', 'POST', '/api/v1/frames', { raw: '{"videoId":"dQw4w9WgXcQ","t":1e400}' }],
      [
        'timestamps with NaN strings',
        'POST',
        '/api/v1/frames',
        { body: { videoId: 'dQw4w9WgXcQ', timestamps: ['NaN', 'Infinity', '-Infinity'] } },
      ],
      ['GET frame t=NaN', 'GET', '/api/v1/videos/dQw4w9WgXcQ/frame?t=NaN', {}],
      ['GET frame t=Infinity', 'GET', '/api/v1/videos/dQw4w9WgXcQ/frame?t=Infinity', {}],
      ['GET frame t=-1', 'GET', '/api/v1/videos/dQw4w9WgXcQ/frame?t=-1', {}],
      ['GET frame t=1e999', 'GET', '/api/v1/videos/dQw4w9WgXcQ/frame?t=1e999', {}],
      ['GET frame width=1e9', 'GET', '/api/v1/videos/dQw4w9WgXcQ/frame?t=1&width=1000000000', {}],
      [
        'text/plain body',
        'POST',
        '/api/v1/subtitles',
        { raw: '{"videoId":"dQw4w9WgXcQ"}', headers: { 'content-type': 'text/plain' } },
      ],
      ['JSON null body', 'POST', '/api/v1/subtitles', { raw: 'null' }],
      ['JSON string body', 'POST', '/api/v1/frames', { raw: '"hello"' }],
      ['MCP: invalid JSON-RPC', 'POST', '/mcp', { raw: '{"jsonrpc":"2.0","id":1,"method":', headers: MCP_ACCEPT }],
      [
        'MCP: arguments as array',
        'POST',
        '/mcp',
        {
          body: {
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { name: 'get_video_subtitles', arguments: [1, 2] },
          },
          headers: MCP_ACCEPT,
        },
      ],
      [
        'MCP: deep nesting',
        'POST',
        '/mcp',
        {
          raw: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_video_frame","arguments":${'['.repeat(20_000)}${']'.repeat(20_000)}}}`,
          headers: MCP_ACCEPT,
        },
      ],
      [
        'tRPC: invalid UTF-8',
        'POST',
        '/trpc/subtitles.get',
        { raw: Buffer.from([0x7b, 0x22, 0x76, 0x22, 0x3a, 0xff, 0x7d]) },
      ],
      ['tRPC: deep nesting', 'POST', '/trpc/frames.capture', { raw: '['.repeat(30_000) + ']'.repeat(30_000) }],
    ];
    const rows: string[] = [];
    const failures: string[] = [];
    for (const [name, method, path, opts] of cases) {
      const r = await call(s.url, method, path, { key, ...opts });
      const trpc = path.startsWith('/trpc');
      const mcp = path === '/mcp';
      const shapeOk =
        r.status < 400 ||
        (trpc
          ? typeof r.json?.error?.data?.code === 'string'
          : mcp
            ? r.json?.jsonrpc === '2.0' || isErrorShape(r.json)
            : isErrorShape(r.json));
      const code =
        r.json?.error?.code ??
        r.json?.error?.data?.code ??
        (r.json?.result?.isError ? JSON.parse(r.json.result.content[0].text).error.code : '');
      rows.push(`| ${name} | ${method} ${path.split('?')[0]} | ${r.status} ${code} |`);
      if (r.status >= 500 || !shapeOk || code === 'INTERNAL_ERROR' || code === -32603)
        failures.push(`${name}: ${r.status} ${r.text.slice(0, 200)}`);
    }
    const charges = await s.deps.sql`select 1 from credit_ledger where account_id = ${accountId} and kind = 'charge'`;
    note(
      '4. Bad input',
      [
        `fast-check over every REST route (${restRoutes.length}) with ${RUNS_REST} inputs each and every MCP tool (${tools.length}) with ${RUNS_MCP} arguments each,`,
        "generated from the procedure's own input properties (valid-shaped values, hostile strings, NaN/Infinity, huge strings and arrays, random JSON),",
        `fixed seeds. Answers by status: ${[...tally.entries()]
          .sort()
          .map(([k, n]) => `${k}: ${n}`)
          .join(', ')}. Violations (5xx, or 4xx without the error shape, or an MCP INTERNAL_ERROR): ${bad.length}.`,
        '',
        '| hostile request | route | answer |',
        '| --- | --- | --- |',
        ...rows,
        '',
        `Charges for the fuzzing account: ${charges.length}.`,
        ...(bad.length || failures.length
          ? ['', 'Violations:', '', ...[...bad, ...failures].slice(0, 15).map((b) => `- \`${b.replace(/`/g, "'")}\``)]
          : []),
      ].join('\n'),
    );
    expect(failures).toEqual([]);
    expect(charges).toHaveLength(0);
  });
});
