// Hostile text in every field the database or a URL parser sees, on every surface, by a signed-in account with a key:
// NULs (valid UTF-8, which PostgreSQL cannot store), bidi overrides, BOMs, line separators, overlong and
// LIKE-pattern text, impossible dates and numbers. Each is a 4xx in the surface's shape, never a 500 or a database's
// own words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEmail, sessionClient } from '../web/session-client.ts';
import { fakeVideoSource } from '../support/fake-video-source.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

let s: TestServer;
let key: string;
beforeAll(async () => {
  s = await startTestServer({}, { youtube: fakeVideoSource() });
  ({ key } = await s.newKey({ credits: 5, rateLimit: 100_000 }));
}, 60_000);
afterAll(async () => {
  await s?.close();
});

/** Words only a database or its driver writes. */
const DATABASE_WORDS =
  /postgres|syntax error|relation "|column "|invalid byte sequence|violates|out of range for|invalid input syntax|unsupported Unicode|SQLSTATE/i;
const HOSTILE = [
  'a\u0000b',
  '\u0000',
  '\u202e\u2066x',
  '\ufeff',
  'a\u2028b',
  '%_\\',
  'x'.repeat(70_000),
  '2026-02-30T00:00:00+15:99',
  '275760-09-14',
];
const HOSTILE_NUMBERS = [1e308, -1, 2 ** 31, 2 ** 63, 0.5, -0];

const findings: string[] = [];
async function probe(what: string, path: string, init: RequestInit & { headers?: Record<string, string> } = {}) {
  const res = await fetch(`${s.url}${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...init.headers,
    },
  });
  const text = await res.text();
  // A 5xx the service means (502 from YouTube, 503 when saturated) names its code; INTERNAL_ERROR is a finding.
  const internal = res.status >= 500 && (res.status === 500 || /INTERNAL_ERROR|-32603/.test(text));
  if (internal || DATABASE_WORDS.test(text)) findings.push(`${what}: ${res.status} ${text.slice(0, 200)}`);
}

const BODIES: [string, Record<string, unknown>][] = [
  ['/subtitles', { videoId: 'dQw4w9WgXcQ', lang: 'en', format: 'json', callbackUrl: 'https://example.com/cb' }],
  ['/frames', { videoId: 'dQw4w9WgXcQ', t: 1, width: 320 }],
  ['/transcripts/translate', { videoId: 'dQw4w9WgXcQ', sourceLang: 'en', targetLang: 'de' }],
  ['/summaries', { videoId: 'dQw4w9WgXcQ', lang: 'en', length: 'short' }],
  ['/batches', { videos: ['dQw4w9WgXcQ'], operation: { type: 'transcript', lang: 'en' } }],
  ['/watches', { channel: 'UCuAXFkgsw1L7xaCfnd5JJOw', intervalSeconds: 3600, lang: 'en' }],
];
const QUERIES: [string, string[]][] = [
  ['/credits/history', ['limit', 'cursor', 'requestId', 'videoId']],
  ['/articles', ['query', 'category', 'lang', 'page', 'limit', 'cursor']],
  ['/playlists/videos', ['url', 'playlistId', 'cursor']],
  ['/channels/videos', ['url', 'channelId', 'tab', 'cursor']],
  ['/youtube/search', ['query', 'cursor']],
];
const PATHS = ['/videos/{}', '/videos/{}/tracks', '/articles/{}', '/jobs/{}', '/batches/{}', '/watches/{}'];

describe('hostile text', { timeout: 240_000 }, () => {
  it('REST bodies: every field of every writing operation', async () => {
    for (const [path, valid] of BODIES) {
      for (const field of Object.keys(valid)) {
        for (const v of [...HOSTILE, ...HOSTILE_NUMBERS, [HOSTILE[0]], { [HOSTILE[0]!]: HOSTILE[0] }]) {
          await probe(`POST ${path} ${field}=${JSON.stringify(v).slice(0, 30)}`, `/api/v1${path}`, {
            method: 'POST',
            body: JSON.stringify({ ...valid, [field]: v }),
          });
        }
      }
      // In the operation's nested fields, and as an unknown key.
      await probe(`POST ${path} key`, `/api/v1${path}`, {
        method: 'POST',
        body: JSON.stringify({ ...valid, 'a\u0000': 1 }),
      });
    }
    for (const v of HOSTILE)
      await probe(`batch op lang ${v.slice(0, 20)}`, '/api/v1/batches', {
        method: 'POST',
        body: JSON.stringify({ videos: ['dQw4w9WgXcQ'], operation: { type: 'translation', targetLang: v } }),
      });
    expect(findings.splice(0)).toEqual([]);
  });

  it('REST queries and path segments', async () => {
    for (const [path, params] of QUERIES)
      for (const param of params)
        for (const v of [...HOSTILE.slice(0, 6), '2026-02-30T00:00:00+15:99', '-1', '1e400', '99999999999999999999'])
          await probe(`GET ${path} ${param}`, `/api/v1${path}?${param}=${encodeURIComponent(v)}`);
    for (const path of [...PATHS, '/videos/{}/frame?t=1', '/videos/{}/subtitles'])
      for (const v of HOSTILE.slice(0, 6)) {
        await probe(`GET ${path} ${JSON.stringify(v)}`, `/api/v1${path.replace('{}', encodeURIComponent(v))}`);
        if (path === '/watches/{}')
          await probe(`DELETE ${path}`, `/api/v1${path.replace('{}', encodeURIComponent(v))}`, { method: 'DELETE' });
      }
    // A DELETE reads its input from the query as a GET does: the same hostile keys (a 500 before).
    for (const q of ['toString=1', '__proto__[x]=NaN&toString=i*', 'constructor=1', 'hasOwnProperty=x', 'a[]=1'])
      for (const method of ['DELETE', 'HEAD', 'GET'])
        await probe(`${method} /watches/x?${q}`, `/api/v1/watches/wat_x?${q}`, { method });
    expect(findings.splice(0)).toEqual([]);
  });

  it('tRPC: batched calls, GET ?input=, the website’s session procedures', async () => {
    const web = sessionClient(s.url);
    expect((await web.signUp(newEmail())).status).toBe(200);
    const session = { cookie: web.cookie, 'x-csrf-token': web.csrf, authorization: '' };
    for (const v of HOSTILE.slice(0, 6)) {
      const input = encodeURIComponent(JSON.stringify({ 0: { videoId: v }, 1: { id: v } }));
      await probe(`batched GET ${JSON.stringify(v)}`, `/trpc/videos.info,jobs.get?batch=1&input=${input}`);
      await probe(
        `GET ?input= ${JSON.stringify(v)}`,
        `/trpc/articles.search?input=${encodeURIComponent(JSON.stringify({ query: v }))}`,
      );
      await probe(`batched POST`, '/trpc/batches.create,watches.create?batch=1', {
        method: 'POST',
        body: JSON.stringify({ 0: { videos: [v], operation: { type: 'transcript' } }, 1: { channel: v } }),
      });
      for (const [proc, input] of [
        ['keys.create', { name: v }],
        ['keys.revoke', { id: v }],
        ['connections.revoke', { id: v }],
        ['webhooks.settings', { url: `https://example.com/${v}` }],
        ['webhooks.resend', { id: v }],
        ['account.signIn', { email: `${v}@example.com`, password: v }],
        ['account.signUp', { email: `${v}@example.com`, password: `${v}long enough password` }],
      ] as const)
        await probe(`${proc} ${JSON.stringify(v)}`, `/trpc/${proc}`, {
          method: 'POST',
          headers: session,
          body: JSON.stringify(input),
        });
      await probe(`usage.summary`, `/trpc/usage.summary?input=${encodeURIComponent(JSON.stringify({ from: v }))}`, {
        headers: session,
      });
    }
    expect(findings.splice(0)).toEqual([]);
  });

  it('tRPC GET ?input= is JSON too: a lone surrogate escaped in it is refused at the edge, batched or not', async () => {
    const get = async (target: string) => {
      const r = await fetch(`${s.url}${target}`, { headers: { authorization: `Bearer ${key}` } });
      const body = (await r.json()) as any;
      return [r.status, ...(Array.isArray(body) ? body : [body]).map((b) => b.error?.data?.code ?? 'ok')];
    };
    const input = (v: unknown) => encodeURIComponent(JSON.stringify(v));
    expect(await get(`/trpc/articles.search?input=${input({ query: '\ud800' })}`)).toEqual([400, 'INVALID_REQUEST']);
    expect(await get(`/trpc/listing.search?input=${input({ query: 'a\udc00' })}`)).toEqual([400, 'INVALID_REQUEST']);
    expect(
      await get(
        `/trpc/articles.search,credits.history?batch=1&input=${input({ 0: { query: 'x' }, 1: { videoId: '\ud83d' } })}`,
      ),
    ).toEqual([400, 'INVALID_REQUEST']);
    // A pair is one character; a REST query is text, not JSON: its backslashes are the caller's own.
    expect(await get(`/trpc/articles.search?input=${input({ query: '\ud83d\ude00' })}`)).toEqual([200, 'ok']);
    expect(
      (await fetch(`${s.url}/api/v1/articles?query=%5Cud800`, { headers: { authorization: `Bearer ${key}` } })).status,
    ).toBe(200);
  });

  it('MCP: tool arguments and resource URIs', async () => {
    const call = (id: number, method: string, params: unknown) =>
      JSON.stringify({ jsonrpc: '2.0', id, method, params });
    let id = 1;
    const sane = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      body: call(id++, 'tools/call', { name: 'get_credits', arguments: {} }),
    });
    expect(((await sane.json()) as any).result?.isError, 'a well-formed call is answered').toBeFalsy();
    for (const v of HOSTILE.slice(0, 7)) {
      for (const [name, args] of [
        ['get_video_subtitles', { videoId: v }],
        ['get_video_frame', { videoId: v, t: 1 }],
        ['search_articles', { query: v }],
        ['get_credit_history', { cursor: v, videoId: v }],
        ['watch_channel', { channel: v }],
        ['get_watch', { id: v }],
        ['delete_watch', { id: v }],
        ['create_batch', { videos: ['dQw4w9WgXcQ'], operation: { type: 'transcript', lang: v } }],
      ] as const)
        await probe(`mcp ${name} ${JSON.stringify(v).slice(0, 20)}`, '/mcp', {
          method: 'POST',
          body: call(id++, 'tools/call', { name, arguments: args }),
        });
      for (const uri of [`subtext://articles/${v}`, `subtext://transcripts/${v}/en`, `subtext://frames/${v}/1`, v])
        await probe(`mcp resource ${JSON.stringify(uri).slice(0, 40)}`, '/mcp', {
          method: 'POST',
          body: call(id++, 'resources/read', { uri }),
        });
      const e = encodeURIComponent(v);
      for (const uri of [
        `subtext://videos/dQw4w9WgXcQ/transcript?lang=${e}`,
        `subtext://videos/${e}/transcript?lang=en`,
        `subtext://frames/dQw4w9WgXcQ/${e}`,
        `subtext://articles/${e}`,
      ])
        await probe(`mcp resource ${uri.slice(0, 60)}`, '/mcp', {
          method: 'POST',
          body: call(id++, 'resources/read', { uri }),
        });
      await probe('mcp list cursor', '/mcp', { method: 'POST', body: call(id++, 'resources/list', { cursor: v }) });
    }
    expect(findings.splice(0)).toEqual([]);
  });

  it('headers: a key holding a NUL or odd text is 401, never 500', async () => {
    for (const v of ['sk_\u00e9\u00e9', 'sk_a b', `sk_${'x'.repeat(8000)}`, 'Bearer', 'eyJ.e\u00e9.x'])
      await probe(`key ${v.slice(0, 20)}`, '/api/v1/credits', { headers: { authorization: `Bearer ${v}` } });
    await probe('x-api-key latin1', '/api/v1/credits', { headers: { authorization: '', 'x-api-key': 'sk_\u00ff' } });
    expect(findings.splice(0)).toEqual([]);
  });
});
