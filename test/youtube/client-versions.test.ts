// Client identities as data: every InnerTube request says what the table (client-identities.ts) says the client is,
// over youtubei.js 18.1.0's constants; an operator's YOUTUBE_CLIENT_VERSIONS moves a client on; a 400
// FAILED_PRECONDITION from /player (what YouTube answers a retired version, lavalink-devs/youtube-source#231) marks
// that version retired: counted, logged once, shown by `youtube status`, and the chain moves on.
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Sql } from '../../db/client.ts';
import { ConfigError, parseConfig } from '../../src/config.ts';
import { createEgressStore } from '../../src/infra/postgres/youtube-egress.ts';
import { CLIENT_IDENTITIES } from '../../src/infra/youtube/client-identities.ts';
import { createYoutubeSource, type YoutubeSourceOptions } from '../../src/infra/youtube/create-youtube-source.ts';
import { createTestDatabase } from '../support/databases.ts';
import { rest } from '../support/clients.ts';
import { fakeYoutube, json } from '../support/fake-youtube.ts';
import { readShared, sharedAvailable } from '../support/fixture-files.ts';
import { isPlayer, startLoopbackYoutube } from '../support/loopback-youtube.ts';
import { startTestServer } from '../support/test-server.ts';
import { ID, recordedRoutes } from '../transcripts/recorded-youtube.ts';

const VIDEO = 'M4gD1WSo5mA';
// Google's API error shape, as /player answers an ANDROID version it no longer serves.
const RETIRED = {
  error: { code: 400, message: 'Precondition check failed.', errors: [], status: 'FAILED_PRECONDITION' },
};

let db: { url: string; drop(): Promise<void> };
let sql: Sql;
beforeAll(async () => {
  db = await createTestDatabase();
  sql = connect(db.url, { max: 4 }).sql;
});
afterAll(async () => {
  await sql?.end({ timeout: 5 });
  await db?.drop();
});

/** A fake YouTube whose player refuses ANDROID as retired; every request's headers are kept too. */
function harness(opts: Partial<YoutubeSourceOptions> = {}) {
  const yt = fakeYoutube({
    player: (client) =>
      client === 'ANDROID'
        ? json(RETIRED, 400)
        : json(readShared('player.visionos.captions.manual-and-asr.M4gD1WSo5mA.json')),
  });
  const headers: Headers[] = [];
  const warnings: unknown[][] = [];
  const retired: string[] = [];
  const source = createYoutubeSource({
    baseUrl: 'http://127.0.0.1:1',
    fetch: (input, init) => {
      headers.push(new Headers(init?.headers));
      return yt.fetch(input, init);
    },
    clients: ['ANDROID', 'VISIONOS', 'IOS'],
    egress: { store: createEgressStore(sql), budgetPerHour: 1000, cooldownBaseSeconds: 0, cooldownMaxSeconds: 60 },
    log: { warn: (...a) => warnings.push(a), info: () => {}, debug: () => {} },
    onClientRetired: (client, version) => retired.push(`${client} ${version}`),
    ...opts,
  });
  const sent = () =>
    yt.bodies.map((b) => (JSON.parse(b) as { context: { client: Record<string, unknown> } }).context.client);
  return { yt, source, headers, warnings, retired, sent };
}

describe.skipIf(!sharedAvailable)('client identities', () => {
  it('each request says what the table says (version, user agent, OS), not youtubei.js’s constants', async () => {
    const h = harness({ clients: ['VISIONOS'] });
    const yt = fakeYoutube({ player: () => json(readShared('player.bot-check.login-required.json')) });
    const ios = harness({ clients: ['IOS'], fetch: yt.fetch });
    await ios.source.getVideo(VIDEO).catch(() => {});
    expect(yt.bodies).toHaveLength(1);
    expect(JSON.parse(yt.bodies[0]!).context.client).toMatchObject({
      clientName: 'IOS',
      clientVersion: '21.26.4',
      userAgent: CLIENT_IDENTITIES.IOS!.userAgent,
      osName: 'iPhone',
      osVersion: '18.3.2.22D82',
      deviceModel: 'iPhone16,2',
    });

    await h.source.getVideo(VIDEO);
    const [visionos] = h.sent().filter((c) => c.clientName === 'VISIONOS');
    expect(visionos).toMatchObject({ clientVersion: '1.04', osName: 'visionOS', osVersion: '26.6.0.23O770' });
    const header = h.headers.find((x) => x.get('x-youtube-client-version') === '1.04');
    expect(header?.get('user-agent')).toBe(CLIENT_IDENTITIES.VISIONOS!.userAgent);
    // youtubei.js 18.1.0 sends none of these.
    expect(h.sent().map((c) => c.clientVersion)).not.toContain('1.02');
  });

  it('YOUTUBE_CLIENT_VERSIONS moves a client on, in its context and its user agent', async () => {
    const config = parseConfig({ YOUTUBE_CLIENT_VERSIONS: 'android=21.30.1, VISIONOS=1.05' });
    expect(config.YOUTUBE_CLIENT_VERSIONS).toEqual({ ANDROID: '21.30.1', VISIONOS: '1.05' });
    expect(() => parseConfig({ YOUTUBE_CLIENT_VERSIONS: 'WEB=2.1' })).toThrow(ConfigError);
    expect(() => parseConfig({ YOUTUBE_CLIENT_VERSIONS: 'ANDROID=new' })).toThrow(ConfigError);

    const yt = fakeYoutube({ player: () => json(readShared('player.bot-check.login-required.json')) });
    const h = harness({ clients: ['ANDROID'], clientVersions: config.YOUTUBE_CLIENT_VERSIONS, fetch: yt.fetch });
    await h.source.getVideo(VIDEO).catch(() => {});
    expect(JSON.parse(yt.bodies[0]!).context.client).toMatchObject({
      clientName: 'ANDROID',
      clientVersion: '21.30.1',
      userAgent: 'com.google.android.youtube/21.30.1 (Linux; U; Android 11) gzip',
    });
  });
});

describe.skipIf(!sharedAvailable)('TV_DOWNGRADED, a row of the table', () => {
  it('goes out as TVHTML5 at its row’s version, which YOUTUBE_CLIENT_VERSIONS moves on; a plain TV request is not it', async () => {
    const config = parseConfig({ YOUTUBE_CLIENT_VERSIONS: 'TV_DOWNGRADED=5.20260801' });
    expect(config.YOUTUBE_CLIENT_VERSIONS).toEqual({ TV_DOWNGRADED: '5.20260801' });
    const yt = fakeYoutube({ player: () => json(readShared('player.bot-check.login-required.json')) });
    const h = harness({
      clients: ['TV_DOWNGRADED', 'TV'],
      clientVersions: config.YOUTUBE_CLIENT_VERSIONS,
      fetch: yt.fetch,
    });
    await h.source.getVideo(VIDEO).catch(() => {});
    expect(yt.calls.filter((c) => c.startsWith('PLAYER'))).toEqual([
      `PLAYER TVHTML5 ${VIDEO}`,
      `PLAYER TVHTML5 ${VIDEO}`,
    ]);
    const [downgraded, tv] = yt.bodies.map(
      (b) => (JSON.parse(b) as { context: { client: Record<string, unknown> } }).context.client,
    );
    expect(downgraded).toMatchObject({ clientName: 'TVHTML5', clientVersion: '5.20260801' });
    expect(yt.headers[0]!.get('x-youtube-client-version')).toBe('5.20260801');
    // The TV client youtubei.js names keeps its own version: the row applies only when the chain asks for it.
    expect(tv?.clientVersion).not.toBe('5.20260801');
    expect(tv?.clientVersion).not.toBe(CLIENT_IDENTITIES.TV_DOWNGRADED!.version);
  });
});

describe.skipIf(!sharedAvailable)('a retired client version', () => {
  it('400 FAILED_PRECONDITION: counted as client_retired, logged once, the chain moves on, the client skipped after', async () => {
    const h = harness();
    const first = await h.source.getVideo(VIDEO);
    expect(first.tracks.length).toBeGreaterThan(0);
    expect(h.yt.calls.filter((c) => c.startsWith('PLAYER'))).toEqual([
      `PLAYER ANDROID ${VIDEO}`,
      `PLAYER VISIONOS ${VIDEO}`,
    ]);
    expect(h.retired).toEqual(['ANDROID 21.26.364']);
    expect(h.warnings).toHaveLength(1);
    expect(String(h.warnings[0]![1])).toMatch(
      /retired ANDROID 21\.26\.364 .*FAILED_PRECONDITION.*YOUTUBE_CLIENT_VERSIONS/,
    );

    // The next video does not spend a request on the retired version, and nothing more is logged.
    await h.source.getVideo(VIDEO);
    expect(h.yt.calls.filter((c) => c === `PLAYER ANDROID ${VIDEO}`)).toHaveLength(1);
    expect(h.warnings).toHaveLength(1);

    const counts = await createEgressStore(sql).counts(new Date(Date.now() - 3_600_000));
    expect(counts).toContainEqual(
      expect.objectContaining({ client: 'ANDROID', purpose: 'captions', kind: 'client_retired', count: 1 }),
    );
  });

  it('`youtube status` shows the versions sent, where each came from, and which YouTube retired', async () => {
    const text = await cli(db.url, 'youtube', 'status', '--hours', '1');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(
      /^ANDROID\s+21\.26\.364\s+Android 11\s+yt-dlp\/yt-dlp#17185 \(2026-07\)\s+yes: 1 x 400/m,
    );
    expect(text.stdout).toMatch(/^VISIONOS\s+1\.04\s+visionOS 26\.6\.0\.23O770\s+NewPipe .*\s+no$/m);
    expect(text.stdout).toMatch(/^ANDROID\s+captions\s+\d+\s+0\s+.*1/m);
    const json = JSON.parse((await cli(db.url, 'youtube', 'status', '--json')).stdout);
    expect(json.clientVersions).toContainEqual(
      expect.objectContaining({ client: 'ANDROID', version: '21.26.364', retired: 1 }),
    );
    expect(json.clients).toContainEqual(
      expect.objectContaining({
        client: 'ANDROID',
        purpose: 'captions',
        refused: expect.objectContaining({ client_retired: 1 }),
      }),
    );
  }, 180_000); // a CLI process start: slow on a loaded machine
});

describe.skipIf(!sharedAvailable)('through the service', { timeout: 60_000 }, () => {
  it('/metrics names the retired version, and its attempt is counted; the video is served by the next client', async () => {
    const base = recordedRoutes();
    const yt = await startLoopbackYoutube({
      ...base,
      player: (client, videoId) => (client === 'ANDROID' ? json(RETIRED, 400) : base.player!('VISIONOS', videoId)),
    });
    const token = 'metrics-token-for-client-versions-1';
    const s = await startTestServer({ YOUTUBE_BASE_URL: yt.origin, METRICS_TOKEN: token });
    try {
      const { key } = await s.newKey();
      const r = await rest(s.url, 'GET', `/videos/${ID.manualAndAsrVisionos}`, { key });
      expect(r.status, r.text).toBe(200);
      expect(yt.requests.filter(isPlayer()).map((q) => q.client)).toEqual(['ANDROID', 'VISIONOS']);
      const metrics = await (await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
      expect(metrics).toContain('subtext_youtube_client_retired{client="ANDROID",version="21.26.364"} 1');
      expect(metrics).toMatch(
        /subtext_youtube_attempts_total\{client="ANDROID",purpose="metadata",identity="direct",kind="client_retired"\} 1/,
      );
    } finally {
      await s.close();
      await yt.close();
    }
  });
});

/** The operator CLI as a child process against the test database. */
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
