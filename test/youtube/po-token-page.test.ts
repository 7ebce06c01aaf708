// PO tokens minted as the web player mints them now: from the page's own challenge (window.ytAtN) with the page's
// ytcfg in yt.config_, through the egress identity that then makes the player request and downloads the caption
// and stream URLs, with the page's visitor data on the player request.
//
// No recorded page carries ytAtN (the shared recordings are watch pages from 2025; see SOURCES.md), so the test
// homepage is BUILT from a recorded watch page's ytcfg (watch-page.captions.GJLlxj_dtq8.html: its EVENT_ID and
// VISITOR_DATA) plus a `window.ytAtN({...})` call in the shape bgutils-js 4.0.3's examples/index-innertube.ts reads.
// The BotGuard VM is Google's and cannot run offline: the challenge names a stand-in interpreter (as in
// po-token-bgutils.test.ts) whose snapshot reports what BotGuard would see of the page session (yt.config_.EVENT_ID),
// and whose minter writes what went into each token. What this proves: page parse, the challenge taken from the page,
// every request of the mint and of its use through one identity, the visitor data carried to the player request, the
// standalone fallback counted. What it cannot: that Google's VM accepts jsdom, or YouTube our tokens.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Sql } from '../../db/client.ts';
import { createEgressStore } from '../../src/infra/postgres/youtube-egress.ts';
import { createYoutubeSource } from '../../src/infra/youtube/create-youtube-source.ts';
import { createInProcessTokenProvider } from '../../src/infra/youtube/po-token/bgutils-provider.ts';
import { readPageChallenge, readYtcfg, visitorDataOf } from '../../src/infra/youtube/po-token/page-challenge.ts';
import { identityName } from '../../src/infra/youtube/proxy-pool.ts';
import { balancedObject, extractPlayerResponse } from '../../src/infra/youtube/watch-page.ts';
import { createTestDatabase } from '../support/databases.ts';
import { readShared, sharedAvailable } from '../support/fixture-files.ts';
import { startForwardProxy, type ForwardProxy } from '../support/forward-proxy.ts';

const WATCH = 'watch-page.captions.GJLlxj_dtq8.html';
const RECORDED_EVENT_ID = 'xZ1JaISSF6qYsvQPoIS5oQg';
const VIDEO = 'GJLlxj_dtq8';
const STREAM_VIDEO = '2isYuQZMbdU';
const INTEGRITY = Buffer.from('integrity-token').toString('base64');

// Stand-in VM: the snapshot says which page session BotGuard saw; the minter binds program, integrity token and
// content binding into the token.
const INTERPRETER = `
globalThis.standInBg = {
  a(program, setup) {
    const snapshot = (done, args) => {
      const output = args[2];
      output.push(async (integrity) => async (binding) =>
        new TextEncoder().encode(['pot', program, new TextDecoder().decode(integrity), new TextDecoder().decode(binding)].join('|')));
      done('snapshot|' + program + '|' + (globalThis.yt && globalThis.yt.config_ ? globalThis.yt.config_.EVENT_ID : 'no-page'));
    };
    setup(snapshot, () => {}, () => {}, () => {});
    return [async () => 'sync'];
  },
};`;

/** The recorded watch page's main ytcfg.set({...}) object, as text. */
function recordedYtcfg(): string {
  const html = readShared(WATCH);
  const at = html.indexOf('ytcfg.set({"CLIENT_CANARY_STATE"');
  return balancedObject(html, html.indexOf('{', at))!;
}

/** A homepage built from the recorded ytcfg, with (or without) the challenge the web player takes from it. */
function builtHomepage(withChallenge: boolean): string {
  const challenge = JSON.stringify({
    bgChallenge: {
      interpreterUrl: { privateDoNotAccessOrElseTrustedResourceUrlWrappedValue: '//www.google.com/js/th/standin.js' },
      interpreterHash: 'standin-hash',
      program: 'PROGRAM-PAGE',
      globalName: 'standInBg',
    },
  });
  return [
    '<!DOCTYPE html><html><head><script>',
    `ytcfg.set(${recordedYtcfg()});`,
    '</script></head><body>',
    withChallenge ? `<script>window.ytAtN({R: '${challenge}', M: 'x',});</script>` : '',
    '</body></html>',
  ].join('');
}

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: ReturnType<typeof createServer>;
let origin: string;
let pageHasChallenge = true;
const seen: Seen[] = [];
const watchPage = () => extractPlayerResponse(readShared(WATCH));

beforeAll(async () => {
  if (!sharedAvailable) return;
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      seen.push({ method: req.method ?? '', path, headers: req.headers, body });
      const send = (status: number, text: string, type = 'application/json') => {
        res.writeHead(status, { 'content-type': type });
        res.end(text);
      };
      if (path === '/') return send(200, builtHomepage(pageHasChallenge), 'text/html');
      if (path === '/js/th/standin.js') return send(200, INTERPRETER, 'text/javascript');
      if (path === '/api/jnn/v1/Create')
        return send(200, JSON.stringify([['id', [null, INTERPRETER], null, 'h', 'PROGRAM-STANDALONE', 'standInBg']]));
      if (path === '/api/jnn/v1/GenerateIT') return send(200, JSON.stringify([INTEGRITY, 3600, 300, null]));
      if (path === '/youtubei/v1/player') {
        const { videoId } = JSON.parse(body) as { videoId: string };
        // The WEB client's answer for the watch page's video is the page's own embedded player response (exp=xpe
        // caption URLs); for the stream video, the recorded WEB answer.
        const answer =
          videoId === VIDEO
            ? watchPage()
            : JSON.parse(readShared('player.web.captions-15-tracks.multi-audio.2isYuQZMbdU.json'));
        return send(200, JSON.stringify(answer));
      }
      if (path === '/api/timedtext') return send(200, readShared('timedtext.styled-manual.json3.sc3-z_2aNX0.json'));
      if (path === '/videoplayback') return send(206, 'x', 'video/mp4');
      send(404, '{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => (server ? new Promise<void>((resolve) => server.close(() => resolve())) : undefined));

const decode = (token: string) => Buffer.from(token, 'base64url').toString('utf8');

describe.skipIf(!sharedAvailable)('reading the page the web player loads', () => {
  it('takes ytcfg (EVENT_ID, visitor data) from a recorded watch page, merging its ytcfg.set calls', () => {
    const ytcfg = readYtcfg(readShared(WATCH));
    expect(ytcfg.EVENT_ID).toBe(RECORDED_EVENT_ID);
    expect(visitorDataOf(ytcfg)).toMatch(/^Cg[\w-]+%3D%3D$/);
    // A later call, a JavaScript literal rather than JSON (single quotes, trailing commas), is merged too.
    expect(ytcfg.CSI_SERVICE_NAME).toBe('youtube');
  });

  it('finds no ytAtN challenge in any recorded page (none was recorded), and finds it in the page built from one', () => {
    for (const name of [WATCH, 'watch-page.captions-13-tracks.QRS8MkLhQmM.html', 'watch-page.private.m8uHb5jIGN8.html'])
      expect(readPageChallenge(readShared(name))).toBeUndefined();
    expect(readPageChallenge(builtHomepage(true))).toEqual({
      program: 'PROGRAM-PAGE',
      globalName: 'standInBg',
      interpreterUrl: '//www.google.com/js/th/standin.js',
      interpreterJavascript: undefined,
    });
  });
});

describe.skipIf(!sharedAvailable)('minting through one egress identity', { timeout: 90_000 }, () => {
  let db: { url: string; drop(): Promise<void> };
  let sql: Sql;
  let proxies: ForwardProxy[];
  beforeAll(async () => {
    db = await createTestDatabase();
    sql = connect(db.url, { max: 4 }).sql;
    proxies = [await startForwardProxy(), await startForwardProxy()];
  });
  afterAll(async () => {
    for (const p of proxies ?? []) await p.close();
    await sql?.end({ timeout: 5 });
    await db?.drop();
  });

  function sourceWith(clients: string[]) {
    const urls = proxies.map((p) => p.url);
    const provider = createInProcessTokenProvider({
      baseUrl: origin,
      timeoutMs: 20_000,
      proxyFor: (identity) => urls.find((u, i) => identityName(u, i) === identity),
    });
    const minted: string[] = [];
    const source = createYoutubeSource({
      baseUrl: origin,
      proxyUrls: urls,
      poTokens: provider,
      clients,
      egress: { store: createEgressStore(sql), budgetPerHour: 1000, cooldownBaseSeconds: 0, cooldownMaxSeconds: 60 },
      onTokenMinted: (kind, path) => minted.push(`${kind}:${path}`),
    });
    return { source, provider, minted };
  }

  it('page challenge and ytcfg -> token; the player request carries the page’s visitor data; captions and streams go through the same identity', async () => {
    pageHasChallenge = true;
    seen.length = 0;
    for (const p of proxies) p.seen.length = 0;
    const { source, provider, minted } = sourceWith(['WEB']);
    try {
      const video = await source.getVideo(VIDEO);
      const track = video.tracks.find((t) => t.lang === 'en' && !t.autoGenerated)!;
      const segments = await source.fetchTranscript(track);
      expect(segments.length).toBeGreaterThan(0);

      // The page first, then its interpreter, then GenerateIT: the standalone challenge was never asked for.
      const paths = seen.map((s) => `${s.method} ${s.path}`);
      expect(paths.slice(0, 3)).toEqual(['GET /', 'GET /js/th/standin.js', 'POST /api/jnn/v1/GenerateIT']);
      expect(paths).not.toContain('POST /api/jnn/v1/Create');
      // BotGuard saw the recorded page's session (yt.config_.EVENT_ID).
      const generate = seen.find((s) => s.path === '/api/jnn/v1/GenerateIT')!;
      expect(JSON.parse(generate.body)[1]).toBe(`snapshot|PROGRAM-PAGE|${RECORDED_EVENT_ID}`);

      // The player request: the token minted for this video from the page's program, and the page's visitor data.
      const pageVisitor = visitorDataOf(readYtcfg(builtHomepage(true)))!;
      const player = seen.find((s) => s.path === '/youtubei/v1/player')!;
      const body = JSON.parse(player.body) as {
        context: { client: { visitorData: string; clientName: string } };
        serviceIntegrityDimensions?: { poToken?: string };
      };
      expect(body.context.client.visitorData).toBe(pageVisitor);
      expect(player.headers['x-goog-visitor-id']).toBe(pageVisitor);
      const token = body.serviceIntegrityDimensions?.poToken ?? '';
      expect(decode(token)).toBe(`pot|PROGRAM-PAGE|integrity-token|${VIDEO}`);

      // The caption URL (exp=xpe) carries the same token, and was downloaded through the same identity.
      const timedtext = seen.find((s) => s.path === '/api/timedtext')!;
      expect(timedtext).toBeDefined();
      const sawPlayer = (p: ForwardProxy) => p.seen.some((u) => new URL(u).pathname === '/youtubei/v1/player');
      const [used, unused] = sawPlayer(proxies[0]!) ? [proxies[0]!, proxies[1]!] : [proxies[1]!, proxies[0]!];
      const via = used.seen.map((u) => new URL(u).pathname);
      expect(via).toEqual(
        expect.arrayContaining([
          '/',
          '/js/th/standin.js',
          '/api/jnn/v1/GenerateIT',
          '/youtubei/v1/player',
          '/api/timedtext',
        ]),
      );
      expect(unused.seen).toEqual([]);
      const captionUrl = new URL(used.seen.find((u) => u.includes('/api/timedtext'))!);
      expect(captionUrl.searchParams.get('pot')).toBe(token);
      expect(captionUrl.searchParams.get('c')).toBe('WEB');
      expect(minted).toEqual(['bgutils:page']);

      // A stream URL of that identity's answer carries its token, and its ranged check leaves from that identity.
      const streams = sourceWith(['WEB']);
      try {
        used.seen.length = 0;
        unused.seen.length = 0;
        const frames = await streams.source.getFrameSource(STREAM_VIDEO, 640);
        expect(frames.kind).toBe('stream');
        const streamUrl = new URL((frames as { url: string }).url);
        expect(decode(streamUrl.searchParams.get('pot')!)).toBe(`pot|PROGRAM-PAGE|integrity-token|${STREAM_VIDEO}`);
        const [streamVia, other] = used.seen.some((u) => u.includes('/videoplayback'))
          ? [used, unused]
          : [unused, used];
        expect(streamVia.seen.map((u) => new URL(u).pathname)).toEqual(
          expect.arrayContaining(['/', '/youtubei/v1/player', '/videoplayback']),
        );
        expect(other.seen).toEqual([]);
      } finally {
        await streams.provider.close();
      }
    } finally {
      await provider.close();
    }
  });

  it('a page without a challenge falls back to the standalone one, and the fallback is counted', async () => {
    pageHasChallenge = false;
    seen.length = 0;
    const { source, provider, minted } = sourceWith(['WEB']);
    try {
      await source.getVideo(VIDEO, undefined, 'metadata');
      const paths = seen.map((s) => `${s.method} ${s.path}`);
      expect(paths.slice(0, 3)).toEqual(['GET /', 'POST /api/jnn/v1/Create', 'POST /api/jnn/v1/GenerateIT']);
      expect(minted).toEqual(['bgutils:standalone']);
      const player = JSON.parse(seen.find((s) => s.path === '/youtubei/v1/player')!.body) as {
        serviceIntegrityDimensions?: { poToken?: string };
      };
      expect(decode(player.serviceIntegrityDimensions?.poToken ?? '')).toBe(
        `pot|PROGRAM-STANDALONE|integrity-token|${VIDEO}`,
      );
    } finally {
      pageHasChallenge = true;
      await provider.close();
    }
  });
});
