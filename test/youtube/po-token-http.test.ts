import { execFile } from 'node:child_process';
// The HTTP PO token provider against a loopback server speaking bgutil-ytdlp-pot-provider's documented API
// (POST /get_pot with content_binding and proxy -> poToken, contentBinding, expiresAt; errors as {"error"};
// GET /ping -> {server_uptime, version}), the version check (1.3.2 or newer, read once, refused at start below it),
// and the per-identity, per-video cache in front of it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPoTokenProvider } from '../../src/infra/youtube/po-token/create-provider.ts';
import { compareVersions, createHttpTokenProvider } from '../../src/infra/youtube/po-token/http-provider.ts';
import { createTestDatabase } from '../support/databases.ts';
import { createTokenCache } from '../../src/infra/youtube/po-token/token-cache.ts';
import { rest } from '../support/clients.ts';
import { html } from '../support/fake-youtube.ts';
import { readShared, sharedAvailable } from '../support/fixture-files.ts';
import { isCaptions, startLoopbackYoutube } from '../support/loopback-youtube.ts';
import { startTestServer } from '../support/test-server.ts';
import { ID, recordedRoutes } from '../transcripts/recorded-youtube.ts';

interface Seen {
  method: string;
  path: string;
  contentType: string | undefined;
  body: unknown;
}

let server: ReturnType<typeof createServer>;
let origin: string;
const seen: Seen[] = [];
let version: string | undefined = '1.3.2';
let pings = 0;
let answer: (body: { content_binding?: string }) => { status: number; body: unknown } = (b) => ({
  status: 200,
  body: {
    poToken: `tok_${b.content_binding}_0123456789abcdef`,
    contentBinding: b.content_binding,
    expiresAt: new Date(Date.now() + 12 * 3_600_000).toISOString(),
  },
});

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (req.method === 'GET' && req.url === '/ping') {
        pings++;
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ server_uptime: 12.5, ...(version ? { version } : {}) }));
      }
      const body = text ? (JSON.parse(text) as { content_binding?: string }) : {};
      seen.push({ method: req.method ?? '', path: req.url ?? '', contentType: req.headers['content-type'], body });
      if (req.method !== 'POST' || req.url !== '/get_pot') {
        res.writeHead(404, { 'content-type': 'application/json' });
        return res.end('{"error":"not found"}');
      }
      const a = answer(body);
      res.writeHead(a.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(a.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('bgutil-ytdlp-pot-provider over HTTP', () => {
  it('asks POST /get_pot with the video id as content binding and reads the token and its expiry', async () => {
    const provider = createHttpTokenProvider({ url: origin });
    seen.length = 0;
    const minted = await provider.mint('dQw4w9WgXcQ');
    expect(seen).toEqual([
      { method: 'POST', path: '/get_pot', contentType: 'application/json', body: { content_binding: 'dQw4w9WgXcQ' } },
    ]);
    expect(minted.token).toBe('tok_dQw4w9WgXcQ_0123456789abcdef');
    expect(minted.expiresAt.getTime()).toBeGreaterThan(Date.now() + 11 * 3_600_000);
  });

  it('says what the server said when it fails, and refuses a token bound to something else', async () => {
    const provider = createHttpTokenProvider({ url: `${origin}/` });
    const keep = answer;
    try {
      answer = () => ({ status: 500, body: { error: 'Failed to fetch challenge' } });
      await expect(provider.mint('dQw4w9WgXcQ')).rejects.toThrow(/HTTP 500: Failed to fetch challenge/);
      answer = () => ({
        status: 200,
        body: {
          poToken: 'a_session_bound_token_0123456789',
          contentBinding: 'CgtWaXNpdG9ySWQ',
          expiresAt: new Date().toISOString(),
        },
      });
      await expect(provider.mint('dQw4w9WgXcQ')).rejects.toThrow(/not for dQw4w9WgXcQ/);
      answer = () => ({ status: 200, body: { nothing: true } });
      await expect(provider.mint('dQw4w9WgXcQ')).rejects.toThrow(/without a usable poToken/);
    } finally {
      answer = keep;
    }
  });

  it('a server that does not answer is an error naming it, not a hang', async () => {
    const provider = createHttpTokenProvider({ url: 'http://127.0.0.1:1', timeoutMs: 2000 });
    await expect(provider.mint('dQw4w9WgXcQ')).rejects.toThrow(/127\.0\.0\.1:1 did not answer/);
  });
});

describe('the provider’s version (GET /ping)', () => {
  const quiet = { info: () => {}, warn: () => {} };

  it('compares dotted versions numerically', () => {
    expect(compareVersions('1.3.2', '1.3.2')).toBe(0);
    expect(compareVersions('1.3.10', '1.3.2')).toBe(1);
    expect(compareVersions('1.2.9', '1.3.2')).toBe(-1);
    expect(compareVersions('2.0', '1.3.2')).toBe(1);
    expect(compareVersions('v1.3.2-rc1', '1.3.2')).toBe(0);
  });

  it('below 1.3.2 is refused at start with a message that says why and what to do, and never asked for a token', async () => {
    version = '1.3.1';
    try {
      const provider = createHttpTokenProvider({ url: origin });
      seen.length = 0;
      const refusal =
        /bgutil-ytdlp-pot-provider 1\.3\.1; 1\.3\.2 or newer is needed .*standalone challenge.*upgrade it/;
      await expect(checkPoTokenProvider(provider, quiet)).rejects.toThrow(refusal);
      await expect(provider.mint('dQw4w9WgXcQ')).rejects.toThrow(refusal);
      expect(seen).toEqual([]);
      // A server that does not say its version is refused the same way.
      version = undefined;
      await expect(checkPoTokenProvider(createHttpTokenProvider({ url: origin }), quiet)).rejects.toThrow(
        /of unknown version .*1\.3\.2 or newer is needed/,
      );
    } finally {
      version = '1.3.2';
    }
  });

  it('the service does not start with a provider below 1.3.2', async () => {
    version = '1.2.0';
    const database = await createTestDatabase();
    try {
      await expect(startTestServer({ YOUTUBE_POT_PROVIDER_URL: origin }, {}, { database })).rejects.toThrow(
        /bgutil-ytdlp-pot-provider 1\.2\.0; 1\.3\.2 or newer is needed/,
      );
    } finally {
      version = '1.3.2';
      await database.drop();
    }
  });

  it('1.3.2 and later are read once, then tokens are asked for with the identity’s proxy; unreachable is retried', async () => {
    version = '1.10.0';
    try {
      const provider = createHttpTokenProvider({
        url: origin,
        proxyFor: (identity) => (identity === 'proxy-1:res.example:1080' ? 'socks5://u:p@res.example:1080' : undefined),
      });
      pings = 0;
      seen.length = 0;
      expect(await provider.checkVersion()).toBe('1.10.0');
      await provider.mint('aaaaaaaaaaa', undefined, 'proxy-1:res.example:1080');
      await provider.mint('bbbbbbbbbbb', undefined, 'direct');
      expect(pings).toBe(1);
      expect(seen.map((x) => x.body)).toEqual([
        { content_binding: 'aaaaaaaaaaa', proxy: 'socks5://u:p@res.example:1080' },
        { content_binding: 'bbbbbbbbbbb' },
      ]);
      const down = createHttpTokenProvider({ url: 'http://127.0.0.1:1', timeoutMs: 2000 });
      await expect(checkPoTokenProvider(down, quiet)).resolves.toBeUndefined();
      await expect(down.mint('ccccccccccc')).rejects.toThrow(/did not answer GET \/ping/);
    } finally {
      version = '1.3.2';
    }
  });
});

describe('one token per video', () => {
  it('asks once per video while the token is fresh, concurrent asks included, and again once it nears expiry', async () => {
    let clock = Date.now();
    const cache = createTokenCache(createHttpTokenProvider({ url: origin }), { now: () => clock });
    seen.length = 0;
    const [a, b] = await Promise.all([
      cache.forVideo('aaaaaaaaaaa', 'direct'),
      cache.forVideo('aaaaaaaaaaa', 'direct'),
    ]);
    expect(a).toBe(b);
    await cache.forVideo('bbbbbbbbbbb', 'direct');
    await cache.forVideo('aaaaaaaaaaa', 'direct');
    expect(seen.map((s) => (s.body as { content_binding: string }).content_binding)).toEqual([
      'aaaaaaaaaaa',
      'bbbbbbbbbbb',
    ]);
    clock += 12 * 3_600_000;
    await cache.forVideo('aaaaaaaaaaa', 'direct');
    expect(seen).toHaveLength(3);
  });
});

describe.skipIf(!sharedAvailable)('through the service', { timeout: 60_000 }, () => {
  it('YOUTUBE_POT_PROVIDER_URL: a watch page’s exp=xpe caption URL is downloaded with the token minted for that video', async () => {
    const base = recordedRoutes();
    const yt = await startLoopbackYoutube({
      ...base,
      watch: (url) =>
        url.searchParams.get('v') === ID.captions9
          ? html(readShared('watch-page.captions.GJLlxj_dtq8.html'))
          : base.watch!(url),
    });
    const s = await startTestServer({
      YOUTUBE_BASE_URL: yt.origin,
      YOUTUBE_POT_PROVIDER_URL: origin,
      YOUTUBE_CAPTION_CLIENTS: 'WATCH_PAGE',
      YOUTUBE_METADATA_CLIENTS: 'watch_page',
      METRICS_TOKEN: 'metrics-token-for-po-token-http-01',
    });
    try {
      seen.length = 0;
      const { key } = await s.newKey({ credits: 10 });
      const r = await rest(s.url, 'POST', '/subtitles', { key, body: { videoId: ID.captions9, lang: 'en' } });
      expect(r.status, r.text).toBe(200);
      expect(seen.map((x) => x.body)).toEqual([{ content_binding: ID.captions9 }]);
      const download = yt.requests.find(isCaptions(ID.captions9))!;
      expect(download.url.searchParams.get('exp')).toBe('xpe');
      expect([
        download.url.searchParams.get('pot'),
        download.url.searchParams.get('potc'),
        download.url.searchParams.get('c'),
      ]).toEqual([`tok_${ID.captions9}_0123456789abcdef`, '1', 'WEB']);
      const metrics = await (
        await fetch(`${s.url}/metrics`, { headers: { authorization: 'Bearer metrics-token-for-po-token-http-01' } })
      ).text();
      expect(metrics).toContain('subtext_youtube_po_token_mints_total{provider="http",path="provider"} 1');
    } finally {
      await s.close();
      await yt.close();
    }
  });
});

describe('`youtube status` and the provider’s version', { timeout: 120_000 }, () => {
  const status = (databaseUrl: string) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['bin/cli.js', 'youtube', 'status', '--json'],
        {
          env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl, YOUTUBE_POT_PROVIDER_URL: origin },
          timeout: 60_000,
        },
        (err, stdout, stderr) => resolve({ code: err ? 1 : 0, stdout, stderr }),
      );
    });

  it('shows a 2.x server’s version, and says why one below 1.3.2 is refused', async () => {
    const database = await createTestDatabase();
    try {
      version = '2.0.1';
      const ok = await status(database.url);
      expect(ok.code, ok.stderr).toBe(0);
      expect(JSON.parse(ok.stdout).tokenProviderVersion).toBe('2.0.1: ok');
      version = '1.3.1';
      const old = JSON.parse((await status(database.url)).stdout);
      expect(old.tokenProviderVersion).toMatch(/^refused: .*1\.3\.1; 1\.3\.2 or newer is needed/);
    } finally {
      version = '1.3.2';
      await database.drop();
    }
  });
});
