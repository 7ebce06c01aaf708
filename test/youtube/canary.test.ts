// The YouTube canary on recorded answers served by a loopback YouTube: `youtube check` prints a row per client and
// purpose for a video that works; a caption file that comes back empty is a failure, never a success; and the
// scheduled run, on the real service, sets the gauges /metrics exports.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../db/client.ts';
import { createEgressStore } from '../../src/infra/postgres/youtube-egress.ts';
import { runYoutubeCanary } from '../../src/infra/youtube/youtube-canary.ts';
import { offerYoutubeCanary } from '../../src/jobs/youtube-canary-worker.ts';
import { createTestDatabase } from '../support/databases.ts';
import { readShared, sharedAvailable } from '../support/fixture-files.ts';
import { playerScriptAnswer, RECORDED_PLAYER_ID, type ScriptBehaviour } from '../support/crafted-player-scripts.ts';
import { html, type FakeRoutes } from '../support/fake-youtube.ts';
import { isCaptions, startLoopbackYoutube, type LoopbackYoutube } from '../support/loopback-youtube.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { ID, recordedRoutes } from '../transcripts/recorded-youtube.ts';

const METRICS_TOKEN = 'metrics-token-for-canary-tests-01';

/** The canary's video: a recorded player answer with captions, and its recorded watch page (for WATCH_PAGE). */
const VIDEO = ID.captions9;

/**
 * The recorded answers, plus VIDEO's recorded watch page (the shared routes serve watch pages only for refusals), and
 * the iframe API and player scripts the decipher rows fetch (crafted: none is recorded, crafted-player-scripts.ts).
 */
function canaryRoutes(
  scripts: { web: ScriptBehaviour; tv: ScriptBehaviour } = { web: 'works', tv: 'works' },
): FakeRoutes {
  const routes = recordedRoutes();
  return {
    ...routes,
    watch: (url) =>
      url.searchParams.get('v') === VIDEO ? html(readShared(`watch-page.captions.${VIDEO}.html`)) : routes.watch!(url),
    other: (url, body) => {
      const script = playerScriptAnswer(url, scripts);
      if (script !== null) return { body: script, contentType: 'text/javascript' };
      return routes.other ? routes.other(url, body) : { status: 404, body: 'no route' };
    },
  };
}

/** The operator CLI as a child process, its YouTube being the loopback one. */
function cli(
  env: Record<string, string>,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/cli.js', ...args],
      { env: { PATH: process.env.PATH, ...env }, timeout: 120_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe.skipIf(!sharedAvailable)('youtube check', { timeout: 60_000 }, () => {
  let yt: LoopbackYoutube;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    yt = await startLoopbackYoutube(canaryRoutes());
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await yt?.close();
    await database?.drop();
  });

  it('prints a row per client and purpose for a recorded video that works, and exits 0', async () => {
    const env = { DATABASE_URL: database.url, YOUTUBE_BASE_URL: yt.origin };
    const run = await cli(env, 'youtube', 'check', VIDEO);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(/^VIDEO\s+CLIENT\s+PURPOSE\s+OUTCOME\s+LATENCY\s+PO TOKEN\s+DETAIL$/);
    // No PO token provider: the web clients are out of the chains, and no token path served.
    for (const client of ['ANDROID', 'VISIONOS', 'WATCH_PAGE']) {
      expect(run.stdout).toMatch(
        new RegExp(`^${VIDEO}\\s+${client}\\s+captions\\s+ok\\s+\\d+ ms\\s+-\\s+9 tracks, "\\S+" \\d+ lines$`, 'm'),
      );
      expect(run.stdout).toMatch(
        new RegExp(`^${VIDEO}\\s+${client}\\s+metadata\\s+ok\\s+\\d+ ms\\s+-\\s+9 tracks$`, 'm'),
      );
    }
    expect(run.stdout).toMatch(
      new RegExp(`^${VIDEO}\\s+VISIONOS\\s+streams\\s+ok\\s+\\d+ ms\\s+-\\s+stream \\d+x\\d+$`, 'm'),
    );
    expect(run.stdout).toMatch(new RegExp(`^${VIDEO}\\s+WATCH_PAGE\\s+streams\\s+ok\\s+`, 'm'));
    expect(run.stdout).not.toMatch(/\bWEB\s+captions/);
    // One decipher row per player script build, once per run.
    for (const variant of ['web', 'tv'])
      expect(run.stdout).toMatch(
        new RegExp(
          `^-\\s+player:${variant}\\s+decipher\\s+ok\\s+\\d+ ms\\s+-\\s+https://www\\.youtube\\.com/s/player/${RECORDED_PLAYER_ID}/`,
          'm',
        ),
      );
    expect(run.stdout).toMatch(/^All 10 checks passed\.$/m);
    // One caption file per captions row, each through its own client.
    expect(yt.count(isCaptions(VIDEO))).toBe(3);

    const json = await cli(env, 'youtube', 'check', VIDEO, '--json');
    const parsed = JSON.parse(json.stdout);
    expect(parsed.checks).toContainEqual(
      expect.objectContaining({ client: 'ANDROID', purpose: 'captions', ok: true, outcome: 'ok', tokenPath: null }),
    );
    expect(json.code).toBe(0);
    expect((await cli(env, 'youtube', 'check', 'not-an-id')).code).toBe(2);
  }, 300_000); // three CLI process starts: slow on a loaded machine

  it('counts an empty caption file the track list promised as a failure (empty_captions), never a success', async () => {
    const routes = canaryRoutes();
    yt.setRoutes({ ...routes, timedtext: () => ({ status: 200, body: '' }) });
    const { sql } = connect(database.url, { max: 2 });
    try {
      const run = await runYoutubeCanary(
        {
          baseUrl: yt.origin,
          chains: { captions: ['ANDROID', 'VISIONOS'], metadata: ['ANDROID'], streams: ['VISIONOS'] },
          egress: { store: createEgressStore(sql), budgetPerHour: 1000, cooldownBaseSeconds: 0, cooldownMaxSeconds: 1 },
        },
        [VIDEO],
      );
      const captions = run.checks.filter((c) => c.purpose === 'captions');
      expect(captions.map((c) => [c.client, c.ok, c.outcome])).toEqual([
        ['ANDROID', false, 'empty_captions'],
        ['VISIONOS', false, 'empty_captions'],
      ]);
      // The track list itself came back: metadata is fine, only the download failed.
      expect(run.checks.find((c) => c.purpose === 'metadata')).toMatchObject({ client: 'ANDROID', ok: true });
    } finally {
      yt.setRoutes(routes);
      await sql.end({ timeout: 5 });
    }
  });

  it('names the PO token path that served a web client, and none for a client that needs no token', async () => {
    const run = await runYoutubeCanary(
      {
        baseUrl: yt.origin,
        poToken: 'static-token-for-canary-test',
        chains: { captions: ['ANDROID', 'WEB'], metadata: ['WEB'], streams: ['WEB'] },
      },
      [VIDEO],
    );
    const row = (client: string, purpose: string) =>
      run.checks.find((c) => c.client === client && c.purpose === purpose);
    expect(row('WEB', 'captions')).toMatchObject({ ok: true, tokenPath: 'static' });
    expect(row('ANDROID', 'captions')).toMatchObject({ ok: true, tokenPath: null });
  });

  it('a player script build that no longer deciphers is its own failed row; the other build stays ok', async () => {
    yt.setRoutes(canaryRoutes({ web: 'throws', tv: 'works' }));
    try {
      const run = await runYoutubeCanary(
        { baseUrl: yt.origin, chains: { captions: ['ANDROID'], metadata: ['ANDROID'], streams: ['VISIONOS'] } },
        [VIDEO],
      );
      const rows = run.checks.filter((c) => c.purpose === 'decipher');
      expect(rows.map((c) => [c.videoId, c.client, c.ok, c.outcome])).toEqual([
        ['-', 'player:web', false, 'decipher_failed'],
        ['-', 'player:tv', true, 'ok'],
      ]);
      expect(rows[0]!.detail).toMatch(/null/);
      // The chains' rows are unaffected: no stream URL of theirs needed deciphering.
      expect(run.checks.filter((c) => c.purpose !== 'decipher').every((c) => c.ok)).toBe(true);
    } finally {
      yt.setRoutes(canaryRoutes());
    }
  });

  it('counts an empty track list for a video chosen for its captions as a failure (no_tracks)', async () => {
    const run = await runYoutubeCanary(
      { baseUrl: yt.origin, chains: { captions: ['ANDROID'], metadata: ['ANDROID'], streams: ['VISIONOS'] } },
      [ID.noCaptions],
    );
    const tracked = run.checks.filter((c) => c.purpose === 'captions' || c.purpose === 'metadata');
    expect(tracked.map((c) => [c.purpose, c.ok, c.outcome])).toEqual([
      ['captions', false, 'no_tracks'],
      ['metadata', false, 'no_tracks'],
    ]);
  });
});

describe.skipIf(!sharedAvailable)('the scheduled canary', { timeout: 60_000 }, () => {
  let yt: LoopbackYoutube;
  let s: TestServer;
  beforeAll(async () => {
    yt = await startLoopbackYoutube(canaryRoutes());
    s = await startTestServer({
      YOUTUBE_BASE_URL: yt.origin,
      METRICS_TOKEN,
      YOUTUBE_CANARY_VIDEOS: VIDEO,
      YOUTUBE_CANARY_INTERVAL: '1h',
    });
  });
  afterAll(async () => {
    await s?.close();
    await yt?.close();
  });

  const scrape = async () => {
    const res = await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    return res.text();
  };

  it('runs at start and exports subtext_youtube_canary_ok and _last_success_timestamp per client and purpose', async () => {
    const started = Date.now() / 1000;
    await expect
      .poll(scrape, { timeout: 30_000, interval: 200 })
      .toMatch(/^subtext_youtube_canary_ok\{client="WATCH_PAGE",purpose="streams"\} /m);
    const text = await scrape();
    for (const [client, purpose] of [
      ['ANDROID', 'captions'],
      ['VISIONOS', 'captions'],
      ['WATCH_PAGE', 'captions'],
      ['ANDROID', 'metadata'],
      ['VISIONOS', 'streams'],
      ['WATCH_PAGE', 'streams'],
      ['player:web', 'decipher'],
      ['player:tv', 'decipher'],
    ]) {
      expect(text).toMatch(
        new RegExp(`^subtext_youtube_canary_ok\\{client="${client}",purpose="${purpose}"\\} 1$`, 'm'),
      );
      const at = new RegExp(
        `^subtext_youtube_canary_last_success_timestamp\\{client="${client}",purpose="${purpose}"\\} (\\S+)$`,
        'm',
      ).exec(text);
      expect(Number(at?.[1])).toBeGreaterThanOrEqual(Math.floor(started) - 1);
    }
    // One run per interval across the cluster: another offer in this interval (from any instance) is dropped.
    expect(await offerYoutubeCanary(s.deps)).toBeNull();
    const [jobs] = await s.deps.sql<
      { n: number }[]
    >`select count(*)::int as n from pgboss.job where name = 'youtube-canary'`;
    expect(jobs!.n).toBe(1);
    // It asked YouTube for a caption file, as the CLI does.
    expect(yt.count(isCaptions(VIDEO))).toBeGreaterThanOrEqual(3);
  });

  it('the alert rules in deploy/ are valid YAML and name only series the service exports', async () => {
    const rules = parse(readFileSync(new URL('../../deploy/prometheus/subtext-alerts.yaml', import.meta.url), 'utf8'));
    const exprs: string[] = rules.groups.flatMap((g: { rules: { expr: string }[] }) => g.rules.map((r) => r.expr));
    expect(exprs.length).toBeGreaterThanOrEqual(2);
    const text = await scrape();
    for (const name of new Set(exprs.flatMap((e) => [...e.matchAll(/\bsubtext_[a-z0-9_]+/g)].map((x) => x[0]))))
      expect(text).toMatch(new RegExp(`^${name}\\{`, 'm'));
  });
});
