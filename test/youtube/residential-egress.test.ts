// The egress ladder through the real service: the machine's own address ("direct", 127.0.0.1 as the loopback
// YouTube sees it) meets YouTube's bot check on player requests for some videos; a residential proxy on loopback
// (an HTTP forward proxy, then a SOCKS5 server, each connecting out from another loopback address so YouTube "sees"
// another exit) counts every byte it carries. The bot-check answer is the recorded one
// (player.bot-check.login-required.json, served verbatim for the videos the test gates); everything else replays
// the recorded fixtures, gzip'd as youtube.com sends them.
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../support/clients.ts';
import { createTestDatabase } from '../support/databases.ts';
import { readShared, sharedAvailable } from '../support/fixture-files.ts';
import { startForwardProxy, type ForwardProxy } from '../support/forward-proxy.ts';
import { startSocks5Server, type Socks5Server } from '../support/socks5-server.ts';
import { isCaptions, isPlayer, startLoopbackYoutube, type LoopbackYoutube } from '../support/loopback-youtube.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { ID, recordedRoutes } from '../transcripts/recorded-youtube.ts';

const METRICS_TOKEN = 'metrics-token-for-residential-01';
/** The goal: residential bytes (request and response, as the proxy counts them) per captioned video. */
const PER_VIDEO_LIMIT = 50_000;
const GATED: Set<string> = new Set([ID.captions9, ID.manualAndAsr, ID.tracks19, ID.tracks36]);

async function startYoutube(): Promise<LoopbackYoutube> {
  const yt = await startLoopbackYoutube(recordedRoutes(), { gzip: true });
  const botCheck = readShared('player.bot-check.login-required.json');
  // YouTube judges the address it sees: only the machine's own (127.0.0.1) is asked to prove it is not a bot.
  yt.setGate((r) =>
    r.kind === 'player' && r.remoteAddress === '127.0.0.1' && r.videoId && GATED.has(r.videoId)
      ? { body: botCheck }
      : undefined,
  );
  return yt;
}

const subtitles = (s: TestServer, key: string, videoId: string) =>
  rest(s.url, 'POST', '/subtitles', { key, body: { videoId } });
const residentialRows = (s: TestServer) =>
  s.deps.sql<{ identity: string; purpose: string; bytes: number }[]>`
    select identity, purpose, sum(bytes)::int as bytes from youtube_residential_bytes group by identity, purpose`;
const fromAddress = (yt: LoopbackYoutube, match: (r: LoopbackYoutube['requests'][number]) => boolean) => [
  ...new Set(yt.requests.filter(match).map((r) => r.remoteAddress)),
];

describe.skipIf(!sharedAvailable)('an HTTP residential proxy after a bot check', { timeout: 60_000 }, () => {
  let yt: LoopbackYoutube;
  let proxy: ForwardProxy;
  let server: TestServer;
  let databaseUrl: string;
  beforeAll(async () => {
    yt = await startYoutube();
    proxy = await startForwardProxy({ localAddress: '127.0.0.2' });
    const database = await createTestDatabase();
    databaseUrl = database.url;
    const auth = `res-user:res-secret@${new URL(proxy.url).host}`;
    server = await startTestServer(
      {
        YOUTUBE_BASE_URL: yt.origin,
        METRICS_TOKEN,
        YOUTUBE_RESIDENTIAL_PROXY_URLS: `http://${auth}`,
        // Cooling off: every video asks the direct address first, so each one shows what its own ladder spent.
        YOUTUBE_COOLDOWN_SECONDS: '0',
      },
      {},
      { database },
    );
  });
  afterAll(async () => {
    await server?.close();
    await proxy?.close();
    await yt?.close();
  });

  it('a video the direct address serves costs no residential byte', async () => {
    const { key } = await server.newKey({ credits: 10 });
    const r = await subtitles(server, key, ID.asrOnlyFr);
    expect(r.status, r.text).toBe(200);
    expect(proxy.bytes()).toBe(0);
    expect(proxy.seen).toEqual([]);
    expect(await residentialRows(server)).toEqual([]);
  });

  it('a bot-checked video: only its player request climbs, under 50 KB on the proxy; the caption body stays direct', async () => {
    const { key } = await server.newKey({ credits: 10 });
    const perVideo: number[] = [];
    for (const id of [ID.captions9, ID.manualAndAsr, ID.tracks36]) {
      const before = proxy.bytes();
      const r = await subtitles(server, key, id);
      expect(r.status, r.text).toBe(200);
      expect(r.json.segments?.length ?? r.json.transcript?.length ?? 1).toBeGreaterThan(0);
      perVideo.push(proxy.bytes() - before);
      // The direct address asked first and met the bot check; the residential exit asked the same client again.
      expect(fromAddress(yt, isPlayer(id))).toEqual(['127.0.0.1', '127.0.0.2']);
      expect(fromAddress(yt, isCaptions(id))).toEqual(['127.0.0.1']);
    }
    for (const bytes of perVideo) {
      expect(bytes).toBeGreaterThan(1000);
      expect(bytes).toBeLessThanOrEqual(PER_VIDEO_LIMIT);
    }
    // What the service metered (and budgets) is what the proxy carried, within the headers' slack.
    const rows = await residentialRows(server);
    const identity = `residential-1:${new URL(proxy.url).host}`;
    // The transcript path asks for the video's info and track list first: the metadata chain.
    expect(rows.map((r) => [r.identity, r.purpose])).toEqual([[identity, 'metadata']]);
    const total = perVideo.reduce((a, b) => a + b, 0);
    expect(rows[0]!.bytes).toBeGreaterThan(total * 0.8);
    expect(rows[0]!.bytes).toBeLessThan(total * 1.2);
    // The credentials reached the proxy, and nowhere else.
    expect(proxy.auth.every((a) => a === `Basic ${Buffer.from('res-user:res-secret').toString('base64')}`)).toBe(true);
  });

  it('/metrics and `youtube status` show the bytes per identity and purpose, never the credentials', async () => {
    const text = await (
      await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
    ).text();
    const identity = `residential-1:${new URL(proxy.url).host}`;
    const response = new RegExp(
      `^subtext_youtube_residential_bytes_total\\{identity="${identity}",purpose="metadata",direction="response"\\} (\\d+)`,
      'm',
    ).exec(text);
    expect(Number(response?.[1])).toBeGreaterThan(1000);
    expect(text).toMatch(/subtext_youtube_residential_bytes_total\{[^}]*direction="request"\} \d+/);
    expect(text).not.toContain('res-secret');

    const status = await cli(databaseUrl, yt.origin, proxy.url, 'youtube', 'status', '--json');
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).not.toContain('res-secret');
    const json = JSON.parse(status.stdout);
    expect(json.residential.budget).toMatchObject({ perHour: 20_000_000, perDay: 200_000_000 });
    expect(json.residential.usage).toEqual([
      { identity, purpose: 'metadata', hour: expect.any(Number), day: expect.any(Number) },
    ]);
    expect(json.residential.usage[0].hour).toBeGreaterThan(3000);
  });
});

describe.skipIf(!sharedAvailable)(
  'a SOCKS5 residential proxy and a budget two instances share',
  { timeout: 60_000 },
  () => {
    let yt: LoopbackYoutube;
    let socks: Socks5Server;
    let a: TestServer;
    let b: TestServer;
    beforeAll(async () => {
      yt = await startYoutube();
      socks = await startSocks5Server({ localAddress: '127.0.0.3' });
      const database = await createTestDatabase();
      const env = {
        YOUTUBE_BASE_URL: yt.origin,
        YOUTUBE_RESIDENTIAL_PROXY_URLS: `socks5://sock-user:sock-secret@127.0.0.1:${socks.port}`,
        YOUTUBE_COOLDOWN_SECONDS: '0',
        // One video's worth (a 64 KB reservation settles to its ~30-45 KB); the next reservation would pass it.
        YOUTUBE_RESIDENTIAL_BYTES_PER_HOUR: '100000',
      };
      a = await startTestServer(env, {}, { database });
      b = await startTestServer(env, {}, { database });
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await socks?.close();
      await yt?.close();
    });

    it('the first bot-checked video goes through SOCKS5; then either instance answers 503 and sends nothing', async () => {
      const { key } = await a.newKey({ credits: 10 });
      const first = await subtitles(a, key, ID.captions9);
      expect(first.status, first.text).toBe(200);
      expect(fromAddress(yt, isPlayer(ID.captions9))).toEqual(['127.0.0.1', '127.0.0.3']);
      expect(socks.connects[0]).toMatchObject({ user: 'sock-user', password: 'sock-secret' });
      const spent = socks.bytes();
      const balance = (await rest(a.url, 'GET', '/credits', { key })).json.purchasedBalance;
      expect(spent).toBeGreaterThan(1000);
      expect(spent).toBeLessThanOrEqual(PER_VIDEO_LIMIT);

      for (const [server, id] of [
        [b, ID.manualAndAsr],
        [a, ID.tracks36],
      ] as const) {
        const refused = await subtitles(server, key, id);
        expect(refused.status, refused.text).toBe(503);
        expect(refused.json.error.code).toBe('SERVICE_BUSY');
        expect(refused.json.error.message).toMatch(/residential egress budget is spent \(this hour's 100000 bytes\)/);
        const retryAfter = Number(refused.headers.get('retry-after'));
        expect(retryAfter).toBeGreaterThan(0);
        expect(retryAfter).toBeLessThanOrEqual(3600);
        // Only the direct ask left: nothing more went through the paid exit.
        expect(fromAddress(yt, isPlayer(id))).toEqual(['127.0.0.1']);
      }
      expect(socks.bytes()).toBe(spent);
      // Refusals cost nothing.
      expect((await rest(a.url, 'GET', '/credits', { key })).json.purchasedBalance).toBe(balance);
    });
  },
);

function cli(
  databaseUrl: string,
  baseUrl: string,
  proxyUrl: string,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  const residential = `http://res-user:res-secret@${new URL(proxyUrl).host}`;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/cli.js', ...args],
      {
        env: {
          PATH: process.env.PATH,
          DATABASE_URL: databaseUrl,
          YOUTUBE_BASE_URL: baseUrl,
          YOUTUBE_RESIDENTIAL_PROXY_URLS: residential,
        },
        timeout: 60_000,
      },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe.skipIf(!sharedAvailable)('while the direct address cools down after a bot check', { timeout: 60_000 }, () => {
  let yt: LoopbackYoutube;
  let proxy: ForwardProxy;
  let server: TestServer;
  beforeAll(async () => {
    yt = await startYoutube();
    proxy = await startForwardProxy({ localAddress: '127.0.0.2' });
    server = await startTestServer({
      YOUTUBE_BASE_URL: yt.origin,
      YOUTUBE_RESIDENTIAL_PROXY_URLS: proxy.url,
      YOUTUBE_COOLDOWN_SECONDS: '120',
    });
  });
  afterAll(async () => {
    await server?.close();
    await proxy?.close();
    await yt?.close();
  });

  it('the next video goes straight to the residential exit; the cooling address is not asked', async () => {
    const { key } = await server.newKey({ credits: 10 });
    expect((await subtitles(server, key, ID.captions9)).status).toBe(200);
    expect(fromAddress(yt, isPlayer(ID.captions9))).toEqual(['127.0.0.1', '127.0.0.2']);
    const next = await subtitles(server, key, ID.manualAndAsr);
    expect(next.status, next.text).toBe(200);
    expect(fromAddress(yt, isPlayer(ID.manualAndAsr))).toEqual(['127.0.0.2']);
  });
});
