// Security: keys never in logs or error bodies, key lookup timing (reported, not asserted), SSRF through `url`,
// SQL injection through search, and one account never seeing another's jobs.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogger } from '../support/capture-log.ts';
import { fakeVideoSource } from '../support/fake-video-source.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { call, isErrorShape, note, relDatabase } from './support.ts';
import { createJob, revokeApiKey } from '../support/stores.ts';

const MCP_ACCEPT = { accept: 'application/json, text/event-stream' };
const pct = (v: number[], p: number) =>
  [...v].sort((a, b) => a - b)[Math.min(v.length - 1, Math.ceil((p / 100) * v.length) - 1)]!;

describe('security', () => {
  let s: TestServer;
  let db: Awaited<ReturnType<typeof relDatabase>>;
  const logs = captureLogger('debug');
  const yt = fakeVideoSource();
  beforeAll(async () => {
    db = await relDatabase();
    s = await startTestServer({ DAILY_FREE_CREDITS: '0' }, { youtube: yt, log: logs.log }, { database: db });
  });
  afterAll(async () => {
    await s?.close();
    await db?.drop();
  });

  it('keys appear in no log line and no error body, whatever field they are sent in', async () => {
    const { key, keyId, accountId } = await s.newKey({ credits: 5, rateLimit: 1_000_000 });
    const revoked = await s.newKey();
    await revokeApiKey(s.deps.sql, revoked.accountId, revoked.keyId);
    const nearMiss = key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a');
    const bodies: string[] = [];
    const send = async (...args: Parameters<typeof call>) => bodies.push((await call(...args)).text);
    for (const k of [key, nearMiss, revoked.key]) {
      await send(s.url, 'GET', '/api/v1/credits', { key: k });
      await send(s.url, 'GET', `/api/v1/credits?key=${k}&apiKey=${k}`, { headers: { 'x-api-key': k } });
      await send(s.url, 'POST', '/api/v1/subtitles', {
        key: k,
        body: { videoId: k, url: `https://www.youtube.com/watch?v=${k}`, lang: k },
      });
      await send(s.url, 'POST', '/api/v1/frames', { key: k, body: { url: k, t: k } });
      await send(s.url, 'GET', `/api/v1/articles?query=${k}&lang=${k}`, { key: k });
      await send(s.url, 'GET', `/api/v1/jobs/${k}`, { key: k });
      await send(s.url, 'POST', '/trpc/subtitles.get', { key: k, body: { videoId: k } });
      await send(s.url, 'POST', '/mcp', {
        key: k,
        headers: MCP_ACCEPT,
        body: {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'get_video_subtitles', arguments: { videoId: k, lang: k } },
        },
      });
      await send(s.url, 'POST', `/api/v1/nope/${k}`, { key: k, body: { key: k } });
      await send(s.url, 'POST', '/api/v1/subtitles', {
        headers: { authorization: `Basic ${k}` },
        raw: `{"videoId": "${k}`,
      });
    }
    await s.deps.lastUsed.flush();
    const secrets = [key, nearMiss, revoked.key];
    const inLogs = logs.lines.filter((l) => secrets.some((k) => l.includes(k) || l.includes(k.slice(3))));
    // A key sent as a credential (header) must never come back. A key pasted into another field (a job id, a video id,
    // a path) is echoed to the same caller by some error messages: reported, not a leak to anyone else.
    const inBodies = bodies.filter(
      (b, i) => (i % 10 === 0 || i % 10 === 1 || i % 10 === 9) && secrets.some((k) => b.includes(k)),
    );
    const echoed = bodies.filter((b) => secrets.some((k) => b.includes(k)));
    note(
      '5. Security',
      `**Keys in logs or bodies.** A valid, a near-miss and a revoked key sent as header, query parameter, body fields (videoId, url, lang, t, key),
path segment, search query, tRPC and MCP arguments, and inside a malformed body: ${logs.lines.length} log lines (debug level) and
${bodies.length} answers captured; lines containing a key: ${inLogs.length}; answers to header-only requests containing the key: ${inBodies.length};
answers echoing a key the caller put in a *field* (reflected to the same caller only): ${echoed.length}.${
        echoed.length
          ? `\n\nAnswers that echo a key sent in a field (first 3):\n\n${echoed
              .slice(0, 3)
              .map((b) => `- \`${b.slice(0, 220).replace(/sk_\w+/g, 'sk_…')}\``)
              .join('\n')}`
          : ''
      }${
        inLogs.length
          ? `\n\nLog lines that contain a key (first 3):\n\n${inLogs
              .slice(0, 3)
              .map((b) => `- \`${b.slice(0, 220).replace(/sk_\w+/g, 'sk_…')}\``)
              .join('\n')}`
          : ''
      }`,
    );
    void keyId;
    void accountId;
    expect(inLogs.map((l) => l.slice(0, 300))).toEqual([]);
    expect(inBodies.map((b) => b.slice(0, 300))).toEqual([]);
  });

  it('key lookup timing: unknown vs revoked vs malformed vs valid (reported, not asserted)', async () => {
    const valid = await s.newKey({ rateLimit: 1_000_000 });
    const revoked = await s.newKey({ rateLimit: 1_000_000 });
    await revokeApiKey(s.deps.sql, revoked.accountId, revoked.keyId);
    const classes: Record<string, () => Record<string, string>> = {
      valid: () => ({ authorization: `Bearer ${valid.key}` }),
      unknown: () => ({ authorization: `Bearer sk_${randomBytes(24).toString('base64url')}` }),
      revoked: () => ({ authorization: `Bearer ${revoked.key}` }),
      'near miss': () => ({ authorization: `Bearer ${valid.key.slice(0, -1)}${valid.key.endsWith('a') ? 'b' : 'a'}` }),
      malformed: () => ({ authorization: 'Bearer' }),
      missing: () => ({}),
    };
    const samples: Record<string, number[]> = Object.fromEntries(Object.keys(classes).map((k) => [k, []]));
    const N = 300;
    for (let i = 0; i < N + 30; i++) {
      for (const [name, headers] of Object.entries(classes)) {
        const t0 = performance.now();
        const r = await fetch(`${s.url}/api/v1/credits`, { headers: headers() });
        await r.arrayBuffer();
        if (i >= 30) samples[name]!.push(performance.now() - t0); // the first rounds warm up
      }
    }
    const rows = Object.entries(samples).map(
      ([name, v]) =>
        `| ${name} | ${pct(v, 50).toFixed(3)} | ${pct(v, 90).toFixed(3)} | ${pct(v, 99).toFixed(3)} | ${(v.reduce((a, b) => a + b, 0) / v.length).toFixed(3)} |`,
    );
    note(
      '5. Security',
      [
        `**Key lookup timing.** GET /api/v1/credits, ${N} requests per class, interleaved round-robin, client-side milliseconds over loopback:`,
        '',
        '| key | p50 ms | p90 ms | p99 ms | mean ms |',
        '| --- | --- | --- | --- | --- |',
        ...rows,
        '',
        'Unknown, revoked and near-miss keys all cost one SHA-256 and one indexed lookup by hash (revocation is a condition of that',
        'same query), so they are indistinguishable to within the noise; a malformed or missing key is refused before any query',
        'and is faster, which reveals only that the header was malformed, something the caller already knows. A valid key is slower',
        '(rate-limit write and the handler).',
      ].join('\n'),
    );
  });

  it('SSRF through url: other hosts, userinfo tricks, IPs and schemes are refused with 400 and never fetched', async () => {
    const { key, accountId } = await s.newKey({ credits: 10, rateLimit: 1_000_000 });
    const urls = [
      'https://evil.example.com/watch?v=dQw4w9WgXcQ',
      'https://www.youtube.com@evil.example.com/watch?v=dQw4w9WgXcQ',
      'https://evil.example.com@www.youtube.com.evil.example.com/watch?v=dQw4w9WgXcQ',
      'https://www.youtube.com.evil.example.com/watch?v=dQw4w9WgXcQ',
      'https://youtube.com:443@127.0.0.1:5432/watch?v=dQw4w9WgXcQ',
      'http://127.0.0.1:5432/watch?v=dQw4w9WgXcQ',
      'http://[::1]/watch?v=dQw4w9WgXcQ',
      'http://169.254.169.254/latest/meta-data?v=dQw4w9WgXcQ',
      'http://2130706433/watch?v=dQw4w9WgXcQ',
      'http://0x7f000001/watch?v=dQw4w9WgXcQ',
      'file:///etc/passwd?v=dQw4w9WgXcQ',
      'gopher://www.youtube.com/watch?v=dQw4w9WgXcQ',
      'javascript:alert(1)//www.youtube.com/watch?v=dQw4w9WgXcQ',
      'https://www.youtube.com\\@evil.example.com/watch?v=dQw4w9WgXcQ',
      'https://evil.example.com/?next=https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      '//evil.example.com/watch?v=dQw4w9WgXcQ',
    ];
    const rows: string[] = [];
    const accepted: string[] = [];
    const before = yt.calls.length;
    for (const url of urls) {
      for (const [path, extra] of [
        ['/api/v1/subtitles', {}],
        ['/api/v1/frames', { t: 1 }],
        ['/api/v1/videos/info', {}],
      ] as const) {
        const r = await call(s.url, 'POST', path, { key, body: { url, ...extra } });
        if (r.status === 405) continue;
        if (r.status !== 400 || !isErrorShape(r.json))
          accepted.push(`${path} ${url} -> ${r.status} ${r.text.slice(0, 120)}`);
        if (path === '/api/v1/subtitles') rows.push(`| \`${url}\` | ${r.status} ${r.json?.error?.code ?? ''} |`);
      }
    }
    const charges = await s.deps.sql`select 1 from credit_ledger where account_id = ${accountId} and kind = 'charge'`;
    note(
      '5. Security',
      [
        `**SSRF through \`url\`.** ${urls.length} hostile URLs (other hosts, userinfo, look-alike hosts, loopback and metadata IPs in several`,
        `spellings, other schemes) on POST /subtitles and /frames: refused with something other than 400 in the spec shape: ${accepted.length};`,
        `video source calls they caused: ${yt.calls.length - before}; charges: ${charges.length}.`,
        '',
        '| url (POST /subtitles) | answer |',
        '| --- | --- |',
        ...rows,
        ...(accepted.length ? ['', 'Not refused with 400:', '', ...accepted.map((a) => `- ${a}`)] : []),
      ].join('\n'),
    );
    expect(accepted).toEqual([]);
    expect(yt.calls.length - before).toBe(0);
  });

  it('SQL injection attempts in search are plain text', async () => {
    const { key } = await s.newKey({ rateLimit: 1_000_000 });
    await s.deps.sql`
      insert into articles (id, video_id, lang, length, source_lang, title, summary, category, tags, body, search_config, search_text)
      values ('art_sec1', 'dQw4w9WgXcQ', 'en', 'medium', 'en', 'Robert tables explained', 'A summary about tables', 'education', '{sql}', '{}'::jsonb, 'english', 'drop table students')`;
    const attempts = [
      "'; drop table articles; --",
      "tables' or '1'='1",
      "tables') or 1=1 --",
      '") | (',
      '!!!',
      '<-> & | :* !',
      'tables:* | robert:A',
      '\\\\\\',
      '$$; select pg_sleep(5); $$',
      '1; select pg_sleep(5)',
      '%_%',
      'tables\u0000',
      "' union select id, hash from api_keys --",
    ];
    const bad: string[] = [];
    let slowest = 0;
    for (const q of attempts) {
      for (const extra of [
        '',
        `&lang=${encodeURIComponent("en' or 1=1 --")}`,
        `&category=${encodeURIComponent("education' --")}`,
      ]) {
        const t0 = performance.now();
        const r = await call(s.url, 'GET', `/api/v1/articles?query=${encodeURIComponent(q)}${extra}`, { key });
        slowest = Math.max(slowest, performance.now() - t0);
        if (
          r.status >= 500 ||
          (r.status >= 400 && !isErrorShape(r.json)) ||
          (r.status === 200 && !Array.isArray(r.json.results))
        )
          bad.push(`${q} ${extra} -> ${r.status} ${r.text.slice(0, 150)}`);
        if (r.status === 200 && JSON.stringify(r.json).includes('sk_')) bad.push(`${q}: key material in results`);
      }
    }
    const [countRow] = await s.deps.sql<{ n: number }[]>`select count(*)::int as n from articles`;
    const n = countRow!.n;
    note(
      '5. Security',
      `**SQL injection in search.** ${attempts.length} injection strings, each alone and with injection in \`lang\` and \`category\`: 5xx or malformed answers ${bad.length}; the articles table still holds its row (${n}); slowest answer ${slowest.toFixed(0)} ms (no pg_sleep ran).${bad.length ? `\n\n${bad.map((b) => `- ${b}`).join('\n')}` : ''}`,
    );
    expect(bad).toEqual([]);
    expect(n).toBe(1);
    expect(slowest).toBeLessThan(4000); // a pg_sleep(5) that ran would show here
  });

  it('one account never sees another account’s jobs', async () => {
    const a = await s.newKey({ rateLimit: 1_000_000 });
    const b = await s.newKey({ rateLimit: 1_000_000 });
    const task = await createJob(s.deps.sql, {
      accountId: a.accountId,
      kind: 'summary',
      input: { videoId: 'dQw4w9WgXcQ' },
      requestId: 'req_test',
    });
    const own = await call(s.url, 'GET', `/api/v1/jobs/${task.id}`, { key: a.key });
    const other = await call(s.url, 'GET', `/api/v1/jobs/${task.id}`, { key: b.key });
    const otherMcp = await call(s.url, 'POST', '/mcp', {
      key: b.key,
      headers: MCP_ACCEPT,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_job', arguments: { id: task.id } } },
    });
    const otherTrpc = await call(
      s.url,
      'GET',
      `/trpc/jobs.get?input=${encodeURIComponent(JSON.stringify({ id: task.id }))}`,
      { key: b.key },
    );
    const credits = await call(s.url, 'GET', '/api/v1/credits', { key: b.key });
    note(
      '5. Security',
      `**Isolation.** Account A's job read by A: ${own.status}; by B over REST: ${other.status} ${other.json?.error?.code}; over tRPC: ${otherTrpc.status}; over MCP: ${otherMcp.text.includes('JOB_NOT_FOUND') ? 'JOB_NOT_FOUND' : otherMcp.text.slice(0, 80)}. Credits always answer the caller's own account (B sees balance ${credits.json?.balance}). Key listing and management are not on the keyed API in this tree (they belong to the website session work in progress), so they were not probed here.`,
    );
    expect(own.status).toBe(200);
    expect(other.status).toBe(404);
    expect(other.json.error.code).toBe('JOB_NOT_FOUND');
    expect(otherTrpc.status).toBe(404);
    expect(otherMcp.text).not.toContain(task.id.length > 0 ? '"status":"queued"' : '');
  });
});
