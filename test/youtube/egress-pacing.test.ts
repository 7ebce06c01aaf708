// Egress identities paced through PostgreSQL, seen from the outside: two service instances on one database share
// each identity's hourly budget and cool-downs; a bot check on one proxy moves the work to the next; when every
// identity rests, callers get 503 SERVICE_BUSY with the real time until one is usable, and YouTube is not asked.
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpClient, mcpError, rest } from '../support/clients.ts';
import { createTestDatabase } from '../support/databases.ts';
import { readShared, sharedAvailable } from '../support/fixture-files.ts';
import { startForwardProxy, type ForwardProxy } from '../support/forward-proxy.ts';
import { startSocks5Server } from '../support/socks5-server.ts';
import { isPlayer, startLoopbackYoutube, type LoopbackYoutube } from '../support/loopback-youtube.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { ID, recordedRoutes } from '../transcripts/recorded-youtube.ts';

const METRICS_TOKEN = 'metrics-token-for-egress-tests-01';

interface Pair {
  databaseUrl: string;
  a: TestServer;
  b: TestServer;
  yt: LoopbackYoutube;
  close(): Promise<void>;
}

/** Two instances (API and worker each) on one database, both sending YouTube traffic to one loopback YouTube. */
async function startPair(env: Record<string, string>): Promise<Pair> {
  const yt = await startLoopbackYoutube(recordedRoutes());
  const database = await createTestDatabase();
  const common = { YOUTUBE_BASE_URL: yt.origin, METRICS_TOKEN, ...env };
  const a = await startTestServer(common, {}, { database });
  const b = await startTestServer(common, {}, { database });
  return {
    databaseUrl: database.url,
    a,
    b,
    yt,
    async close() {
      await a.close();
      await b.close();
      await yt.close();
      await database.drop();
    },
  };
}

const isPlayerUrl = (u: string) => new URL(u).pathname.endsWith('/youtubei/v1/player');
const info = (s: TestServer, key: string, videoId: string) => rest(s.url, 'GET', `/videos/${videoId}`, { key });

describe.skipIf(!sharedAvailable)('an hourly budget shared by two instances', { timeout: 60_000 }, () => {
  let p: Pair;
  beforeAll(async () => {
    p = await startPair({ YOUTUBE_REQUESTS_PER_HOUR: '3' });
  });
  afterAll(() => p?.close());

  it('three requests in all, whichever instance makes them; the fourth is 503 with the wait until the window ends', async () => {
    const { key } = await p.a.newKey();
    expect((await info(p.a, key, ID.captions9)).status).toBe(200);
    expect((await info(p.b, key, ID.manualAndAsr)).status).toBe(200);
    expect((await info(p.a, key, ID.tracks19)).status).toBe(200);
    expect(p.yt.count(isPlayer())).toBe(3);

    const refused = await info(p.b, key, ID.tracks36);
    expect(refused.status).toBe(503);
    expect(refused.json.error.code).toBe('SERVICE_BUSY');
    expect(refused.json.error.message).toMatch(/out of this hour's budget/);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(refused.json.error.message).toContain(`retry in ${retryAfter} s`);
    // YouTube was not asked for it.
    expect(p.yt.count(isPlayer(ID.tracks36))).toBe(0);
    // A stored answer needs no YouTube request and is still served.
    expect((await info(p.b, key, ID.captions9)).status).toBe(200);
  });

  it('/metrics counts each instance’s attempts by client, purpose, identity and kind, and the shared budget', async () => {
    const scrape = async (s: TestServer) =>
      (await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    const count = (text: string, labels: string) =>
      Number(new RegExp(`^subtext_youtube_attempts_total\\{${labels}\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
    const [ta, tb] = [await scrape(p.a), await scrape(p.b)];
    const served = 'client="ANDROID",purpose="metadata",identity="direct",kind="served"';
    expect(count(ta, served) + count(tb, served)).toBe(3);
    for (const text of [ta, tb]) expect(text).toMatch(/^subtext_youtube_identity_requests\{identity="direct"\} 3$/m);
  });
});

describe.skipIf(!sharedAvailable)('a bot check cools the identity for every instance', { timeout: 60_000 }, () => {
  let p: Pair;
  beforeAll(async () => {
    p = await startPair({ YOUTUBE_COOLDOWN_SECONDS: '120' });
  });
  afterAll(() => p?.close());

  it('the instance that met it stops at once; the other answers 503 with the cool-down left, on REST and MCP, asking YouTube nothing', async () => {
    const { key } = await p.a.newKey({ credits: 10 });
    const first = await rest(p.a.url, 'POST', '/subtitles', { key, body: { videoId: ID.botCheck } });
    expect(first.status).toBe(503);
    expect(first.json.error.code).toBe('SERVICE_BUSY');
    expect(first.json.error.message).toMatch(/cooling down.*not a bot/);
    // One request met the bot check; no other client was sent from the cooled address.
    expect(p.yt.count(isPlayer(ID.botCheck))).toBe(1);

    const other = await rest(p.b.url, 'POST', '/subtitles', { key, body: { videoId: ID.captions9 } });
    expect(other.status).toBe(503);
    const retryAfter = Number(other.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(100);
    expect(retryAfter).toBeLessThanOrEqual(120);
    const client = await mcpClient(p.b.url, key);
    const tool = mcpError(await client.callTool({ name: 'get_video_info', arguments: { videoId: ID.manualAndAsr } }));
    await client.close();
    expect(tool?.code).toBe('SERVICE_BUSY');
    expect(p.yt.count(isPlayer(ID.captions9)) + p.yt.count(isPlayer(ID.manualAndAsr))).toBe(0);
    // Nothing was charged for any of it.
    const credits = await rest(p.b.url, 'GET', '/credits', { key });
    expect(credits.json.purchasedBalance).toBe(10);
  });

  it('the next refusal after a cool-down doubles it', async () => {
    const ids = await p.a.deps.sql<{ strikes: number; cooling: number }[]>`
      select strikes, extract(epoch from cooling_until - now())::float8 as cooling from youtube_identities where id = 'direct'`;
    expect(ids[0]!.strikes).toBe(1);
    // Let the cool-down end, then meet the bot check again.
    await p.a.deps.sql`update youtube_identities set cooling_until = now() where id = 'direct'`;
    const { key } = await p.a.newKey({ credits: 10 });
    expect((await rest(p.b.url, 'POST', '/subtitles', { key, body: { videoId: ID.botCheck } })).status).toBe(503);
    const [again] = await p.a.deps.sql<{ strikes: number; cooling: number }[]>`
      select strikes, extract(epoch from cooling_until - now())::float8 as cooling from youtube_identities where id = 'direct'`;
    expect(again!.strikes).toBe(2);
    expect(again!.cooling).toBeGreaterThan(220);
    expect(again!.cooling).toBeLessThanOrEqual(240);
  });

  it('`youtube status` shows the chains, the cooling identity and why, and each client’s attempts by kind', async () => {
    const json = await cli(p.databaseUrl, 'youtube', 'status', '--json');
    expect(json.code, json.stderr).toBe(0);
    const status = JSON.parse(json.stdout);
    expect(status.chains.captions).toEqual(['ANDROID', 'VISIONOS', 'WATCH_PAGE']);
    expect(status.tokenProvider).toMatch(/^none/);
    expect(status.identities).toMatchObject([
      {
        id: 'direct',
        strikes: 2,
        state: expect.stringMatching(/^cooling \d+ s$/),
        lastReason: expect.stringMatching(/not a bot/),
      },
    ]);
    expect(status.clients).toContainEqual({
      client: 'ANDROID',
      purpose: 'metadata',
      tried: 2,
      served: 0,
      refused: { bot_check: 2 },
    });

    const text = await cli(p.databaseUrl, 'youtube', 'status', '--hours', '2');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/captions\s+ANDROID > VISIONOS > WATCH_PAGE/);
    expect(text.stdout).toMatch(/^direct\s+cooling \d+ s\s+\d+\s+2\s+.*not a bot/m);
    expect(text.stdout).toMatch(/^ANDROID\s+metadata\s+2\s+0\s+2/m);
    expect((await cli(p.databaseUrl, 'youtube', 'status', '--hours', '0')).code).not.toBe(0);
  }, 180_000); // a CLI process start: slow on a loaded machine
});

/** The operator CLI as a child process against the pair's database. */
function cli(databaseUrl: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/cli.js', ...args],
      { env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl }, timeout: 60_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe.skipIf(!sharedAvailable)(
  'two proxies: a bot check on one moves the work to the other',
  { timeout: 60_000 },
  () => {
    let p: Pair;
    let blocked: ForwardProxy;
    let open: ForwardProxy;
    beforeAll(async () => {
      blocked = await startForwardProxy();
      open = await startForwardProxy();
      // YouTube, seen from the first proxy's address, asks every player request to prove it is not a bot.
      blocked.answer(
        (u) => u.pathname.endsWith('/youtubei/v1/player'),
        200,
        readShared('player.bot-check.login-required.json'),
      );
      p = await startPair({ YOUTUBE_PROXY_URLS: `${blocked.url},${open.url}`, YOUTUBE_COOLDOWN_SECONDS: '120' });
    });
    afterAll(async () => {
      await p?.close();
      await blocked?.close();
      await open?.close();
    });

    it('the same client is asked again through the other proxy; later requests avoid the cooling one', async () => {
      const { key } = await p.a.newKey();
      const r = await info(p.a, key, ID.captions9);
      expect(r.status).toBe(200);
      expect(blocked.seen.filter((u) => isPlayerUrl(u))).toHaveLength(1);
      expect(open.seen.filter((u) => isPlayerUrl(u))).toHaveLength(1);
      // Both asks were ANDROID (the first of the captions chain): the refusal was about the address, not the client.
      expect(p.yt.requests.filter(isPlayer(ID.captions9)).map((q) => q.client)).toEqual(['ANDROID']);

      expect((await info(p.b, key, ID.manualAndAsr)).status).toBe(200);
      expect(blocked.seen.filter((u) => isPlayerUrl(u))).toHaveLength(1);
      const rows = await p.a.deps.sql<
        { id: string; strikes: number }[]
      >`select id, strikes from youtube_identities order by id`;
      const port = (u: string) => new URL(u).port;
      expect(rows).toEqual([
        { id: `proxy-1:127.0.0.1:${port(blocked.url)}`, strikes: 1 },
        { id: `proxy-2:127.0.0.1:${port(open.url)}`, strikes: 0 },
      ]);
    });
  },
);

describe.skipIf(!sharedAvailable)('a socks5:// proxy', { timeout: 60_000 }, () => {
  it('carries the requests, with the credentials from its URL; its identity name leaves them out', async () => {
    const socks = await startSocks5Server();
    const p = await startPair({ YOUTUBE_PROXY_URLS: `socks5://egress-user:egress-secret@127.0.0.1:${socks.port}` });
    try {
      const { key } = await p.a.newKey();
      const r = await info(p.a, key, ID.captions9);
      expect(r.status, r.text).toBe(200);
      expect(socks.connects.length).toBeGreaterThanOrEqual(1);
      expect(socks.connects[0]).toEqual({
        target: `127.0.0.1:${new URL(p.yt.origin).port}`,
        user: 'egress-user',
        password: 'egress-secret',
      });
      const rows = await p.a.deps.sql<{ id: string; used: number }[]>`select id, used from youtube_identities`;
      expect(rows).toEqual([{ id: `proxy-1:127.0.0.1:${socks.port}`, used: 1 }]);
    } finally {
      await p.close();
      await socks.close();
    }
  });
});
