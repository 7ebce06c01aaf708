// Deciphering stream URLs with the web player script, and with the TV build once when the web one fails, through the
// real service: POST /frames for a video whose recorded player answer has only signatureCipher formats
// (player.web.no-captions.iuevw6218F0.json), against a loopback YouTube serving the iframe API and the two builds.
// The player scripts are CRAFTED (none is recorded; test/support/crafted-player-scripts.ts says how), the player
// answer is the recorded one (with its storyboards taken out where a case says so).
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rest } from '../support/clients.ts';
import {
  playerScriptRoutes,
  RECORDED_PLAYER_ID,
  TV_SCRIPT_PATH,
  WEB_SCRIPT_PATH,
  type ScriptBehaviour,
} from '../support/crafted-player-scripts.ts';
import { createTestDatabase } from '../support/databases.ts';
import { readShared, sharedAvailable } from '../support/fixture-files.ts';
import { cachedTestVideo } from '../support/make-video.ts';
import { storyboardSheet } from '../support/media-youtube.ts';
import { serveFile, startVideoServer, type VideoServer } from '../support/video-server.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const CIPHERED = 'iuevw6218F0';
const METRICS_TOKEN = 'metrics-token-for-decipher-tests-01';

/** A loopback youtube.com and googlevideo.com: the recorded ciphered player answer, a video, both script builds. */
async function startCipheredYoutube(scripts: { web: ScriptBehaviour; tv: ScriptBehaviour }, storyboards = true) {
  const videoFile = await cachedTestVideo({ seconds: 3 * 3600 });
  const sheet = storyboardSheet();
  const player = JSON.parse(readShared('player.web.no-captions.iuevw6218F0.json')) as Record<string, unknown>;
  // Crafted from the recorded answer: without storyboards, a stream URL is the only frame source left.
  if (!storyboards) delete player.storyboards;
  return startVideoServer(
    {
      ...playerScriptRoutes(scripts).routes,
      '/youtubei/v1/player': {
        handle: (req, res, served) => {
          req.resume();
          req.on('end', () => {
            served.status = 200;
            res.writeHead(200, { 'content-type': 'application/json' });
            res.end(JSON.stringify(player));
          });
        },
      },
      '/videoplayback': { file: videoFile },
    },
    (p) =>
      p.startsWith('/sb/')
        ? { handle: (req, res, served) => serveFile(req, res, served, sheet, 'image/jpeg') }
        : undefined,
  );
}

async function scrape(s: TestServer): Promise<string> {
  const res = await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  return res.text();
}

const counter = (text: string, variant: string, outcome: string) =>
  Number(
    new RegExp(`^subtext_youtube_decipher_total\\{variant="${variant}",outcome="${outcome}"\\} (\\S+)$`, 'm').exec(
      text,
    )?.[1],
  );

function youtubeStatus(databaseUrl: string, json: boolean) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ['bin/cli.js', 'youtube', 'status', ...(json ? ['--json'] : [])],
      { env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl }, timeout: 60_000 },
      (err, stdout, stderr) => resolve({ code: err ? 1 : 0, stdout, stderr }),
    );
  });
}

describe.skipIf(!sharedAvailable)('the web player script fails, the TV one works', { timeout: 120_000 }, () => {
  let yt: VideoServer;
  let s: TestServer;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    yt = await startCipheredYoutube({ web: 'throws', tv: 'works' });
    database = await createTestDatabase();
    s = await startTestServer(
      { YOUTUBE_BASE_URL: yt.origin, METRICS_TOKEN },
      {},
      {
        database,
      },
    );
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    await yt?.close();
  });

  it('answers 200 with a frame from the stream the TV build deciphered, and counts tv ok', async () => {
    const { key } = await s.newKey({ credits: 10 });
    const r = await rest(s.url, 'POST', '/frames', { key, body: { videoId: CIPHERED, t: 30, width: 640 } });
    expect(r.status).toBe(200);
    expect(r.json.frames[0]).toMatchObject({ source: 'stream' });
    const opened = yt.requests.filter((q) => q.path === '/videoplayback');
    expect(opened.length).toBeGreaterThan(0);
    expect(yt.requests.filter((q) => q.path === WEB_SCRIPT_PATH)).toHaveLength(1);
    expect(yt.requests.filter((q) => q.path === TV_SCRIPT_PATH)).toHaveLength(1);
    const text = await scrape(s);
    expect(counter(text, 'web', 'failed')).toBe(1);
    expect(counter(text, 'tv', 'ok')).toBe(1);
    expect(counter(text, 'tv', 'failed')).toBe(0);
  });

  it('goes straight to the TV build for the next URL of the same player', async () => {
    const { key } = await s.newKey({ credits: 10 });
    const r = await rest(s.url, 'POST', '/frames', { key, body: { videoId: CIPHERED, t: 95, width: 640 } });
    expect(r.status).toBe(200);
    expect(r.json.frames[0]).toMatchObject({ source: 'stream' });
    const text = await scrape(s);
    expect(counter(text, 'web', 'failed')).toBe(1);
    expect(counter(text, 'tv', 'ok')).toBe(2);
    // Neither script was downloaded again.
    expect(yt.requests.filter((q) => q.path === WEB_SCRIPT_PATH)).toHaveLength(1);
    expect(yt.requests.filter((q) => q.path === TV_SCRIPT_PATH)).toHaveLength(1);
  });

  it('`youtube status` shows the player id of each build, the one that works and why the other failed', async () => {
    const json = await youtubeStatus(database.url, true);
    expect(json.code, json.stderr).toBe(0);
    const scripts = JSON.parse(json.stdout).playerScripts as Record<string, unknown>[];
    expect(scripts).toEqual([
      expect.objectContaining({
        variant: 'tv',
        playerId: RECORDED_PLAYER_ID,
        lastFailed: null,
        url: `https://www.youtube.com${TV_SCRIPT_PATH}`,
      }),
      expect.objectContaining({
        variant: 'web',
        playerId: RECORDED_PLAYER_ID,
        lastOk: null,
        lastError: expect.stringMatching(/null/),
        url: `https://www.youtube.com${WEB_SCRIPT_PATH}`,
      }),
    ]);
    expect(scripts[0]!.lastOk).toEqual(expect.any(String));
    const text = await youtubeStatus(database.url, false);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(
      /^PO tokens: .*\nPlayer scripts deciphering stream URLs \(web, then tv when web fails\):$/m,
    );
    const at = '\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d';
    expect(text.stdout).toMatch(new RegExp(`^tv\\s+${RECORDED_PLAYER_ID}\\s+${at}\\s+-\\s+https://\\S+\\s+-$`, 'm'));
    expect(text.stdout).toMatch(
      new RegExp(`^web\\s+${RECORDED_PLAYER_ID}\\s+-\\s+${at}\\s+https://\\S+\\s+.*null`, 'm'),
    );
  }, 120_000);
});

describe.skipIf(!sharedAvailable)('both player script builds fail', { timeout: 120_000 }, () => {
  let yt: VideoServer;
  let s: TestServer;
  beforeAll(async () => {
    yt = await startCipheredYoutube({ web: 'marks-error', tv: 'throws' }, false);
    s = await startTestServer({ YOUTUBE_BASE_URL: yt.origin, METRICS_TOKEN });
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    await yt?.close();
  });

  it('is EXTRACTION_FAILED naming what each build did, charges nothing, and counts both failed', async () => {
    const { key, accountId } = await s.newKey({ credits: 10 });
    // The service's output is JSON lines: youtubei.js' own console warnings stay off.
    const printed: unknown[][] = [];
    for (const level of ['warn', 'error', 'info', 'debug', 'log'] as const)
      vi.spyOn(console, level).mockImplementation((...a) => void printed.push(a));
    const r = await rest(s.url, 'POST', '/frames', { key, body: { videoId: CIPHERED, t: 30, width: 640 } });
    vi.restoreAllMocks();
    expect(printed.filter((a) => String(a[0]).includes('YOUTUBEJS'))).toEqual([]);
    expect(r.status).toBe(502);
    expect(r.json.error.code).toBe('EXTRACTION_FAILED');
    expect(r.json.error.message).toMatch(
      new RegExp(
        `player ${RECORDED_PLAYER_ID} \\(web script: the n function threw \\(enhanced_except_.*\\); tv script: .*null`,
      ),
    );
    expect(yt.requests.some((q) => q.path === '/videoplayback')).toBe(false);
    const [ledger] = await s.deps.sql<{ sum: number }[]>`
      select coalesce(sum(delta), 0)::int as sum from credit_ledger where account_id = ${accountId} and kind <> 'grant'`;
    expect(ledger!.sum).toBe(0);
    const text = await scrape(s);
    // Each ciphered answer (one per client of the streams chain) tried the web build, then the TV build once.
    expect(counter(text, 'web', 'failed')).toBeGreaterThanOrEqual(1);
    expect(counter(text, 'tv', 'failed')).toBe(counter(text, 'web', 'failed'));
    expect(counter(text, 'tv', 'ok')).toBe(0);
  });
});
