// The Python client as a user gets it: the wheel built from clients/python with Debian's build and hatchling,
// installed into a fresh venv (Debian's httpx through --system-site-packages), and its pytest suite
// (clients/python/tests) run against the real service (HTTP, PostgreSQL, recorded YouTube answers, a loopback model).
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/domain/errors.ts';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { needsSystemTool } from '../support/system-needs.ts';
import { modelReply } from '../llm/llm-fixtures.ts';
import { cachedTestVideo } from '../support/make-video.ts';
import { startLoopbackYoutube, type LoopbackYoutube } from '../support/loopback-youtube.ts';
import { startTestServer } from '../support/test-server.ts';
import { startVideoServer, type VideoServer } from '../support/video-server.ts';
import { BROWSE, replayBrowse } from '../support/youtube-browse-replay.ts';
import { ID, pollUntil, recordedRoutes, startRecordedHarness, type Harness } from '../transcripts/recorded-youtube.ts';

needsSystemTool('python');

const run = promisify(execFile);
const PACKAGE = resolve(import.meta.dirname, '../../clients/python');

let dir: string;
let python: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'subtext-python-'));
  // --skip-dependency-check: Debian's hatchling names editables, which only editable installs use.
  await run('/usr/bin/python3', [
    '-m',
    'build',
    '--no-isolation',
    '--skip-dependency-check',
    '--outdir',
    join(dir, 'dist'),
    PACKAGE,
  ]);
  await run('/usr/bin/python3', ['-m', 'venv', '--system-site-packages', join(dir, 'venv')]);
  python = join(dir, 'venv/bin/python');
  const wheel = (await readdir(join(dir, 'dist'))).find((f) => f.endsWith('.whl'))!;
  await run(python, ['-m', 'pip', 'install', '--quiet', '--no-index', '--no-deps', join(dir, 'dist', wheel)]);
}, 120_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the built package', () => {
  it('holds the client, its types marker and the console script, as wheel and sdist', async () => {
    const files = await readdir(join(dir, 'dist'));
    expect(files.sort()).toEqual(['subtext_client-0.1.0-py3-none-any.whl', 'subtext_client-0.1.0.tar.gz']);
    const { stdout } = await run(python, [
      '-c',
      'import importlib.metadata as m, importlib.resources as r; d = m.distribution("subtext-client"); ' +
        'print(d.requires, r.files("subtext").joinpath("py.typed").is_file(), [e.name for e in d.entry_points])',
    ]);
    expect(stdout.trim()).toBe("['httpx>=0.23'] True ['subtext-youtube-transcript-api']");
  });
});

let h: Harness;
let bare: Harness;
let fake: FakeAnthropic;
let media: VideoServer;
let playlistPlayers: ReturnType<LoopbackYoutube['hold']>;
const RECORDED: Set<string> = new Set(Object.values(ID));

/** The recorded player, caption and browse answers on one loopback YouTube; direct media and callbacks on loopback. */
async function startFullHarness(env: Record<string, string>): Promise<Harness> {
  const routes = recordedRoutes();
  const yt = await startLoopbackYoutube({
    ...routes,
    other: (url, body) => replayBrowse(url, body) ?? { status: 404, body: '' },
  });
  const s = await startTestServer({
    YOUTUBE_BASE_URL: yt.origin,
    MEDIA_ALLOWED_NETWORKS: '127.0.0.1',
    WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
    WEBHOOK_ALLOW_HTTP: 'true',
    ...env,
  });
  return {
    s,
    yt,
    async close() {
      await s.close();
      await yt.close();
    },
  };
}

describe.skipIf(!sharedAvailable)('the pytest suite against a live service', () => {
  beforeAll(async () => {
    fake = await startFakeAnthropic(modelReply);
    media = await startVideoServer({
      '/clip.mp4': { file: await cachedTestVideo({ seconds: 4 }), contentType: 'video/mp4' },
    });
    [h, bare] = await Promise.all([
      startFullHarness({ ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: fake.url, YOUTUBE_COOLDOWN_SECONDS: '0' }),
      // A residential exit whose hourly budget is below one reservation: a bot-checked video is refused SERVICE_BUSY.
      startRecordedHarness({
        YOUTUBE_RESIDENTIAL_PROXY_URLS: 'socks5://user:secret@127.0.0.1:9',
        YOUTUBE_RESIDENTIAL_BYTES_PER_HOUR: '1000',
        YOUTUBE_COOLDOWN_SECONDS: '0',
      }),
    ]);
    // The playlist's videos were never recorded: their batch items stay running, so a cancel finds the rest queued.
    playlistPlayers = h.yt.hold((r) => r.kind === 'player' && !!r.videoId && !RECORDED.has(r.videoId));
    // Once the batch is cancelled its held items have done their part: let them go (their videos were never recorded,
    // they fail, free), or they keep the extraction slots until YouTube's timeout and every later fetch waits for them.
    const cancelled = async () =>
      (await h.s.deps.sql`select 1 from batch_items where status = 'cancelled' limit 1`).length > 0;
    pollUntil(cancelled, 'the batch is cancelled', 300_000).then(
      () => playlistPlayers.release(),
      () => {},
    );
  });
  afterAll(async () => {
    playlistPlayers?.release();
    await Promise.all([h?.close(), bare?.close(), media?.close()]);
    await fake?.close();
  });

  it('has a method for every operation of the served document, and an exception for every error code', async () => {
    const doc = await (await fetch(`${h.s.url}/api/v1/openapi.json`)).json();
    const served = Object.values(doc.paths as Record<string, Record<string, { operationId?: string }>>)
      .filter((ops) => !('servers' in ops))
      .flatMap((ops) => Object.values(ops).flatMap((o) => (o.operationId ? [o.operationId] : [])));
    const { stdout } = await run(python, [
      '-c',
      'import inspect, json, subtext; from subtext.client import Subtext, AsyncSubtext; ' +
        'from subtext._async_operations import AsyncOperations as A; ' +
        'print(json.dumps({"ops": subtext.OPERATIONS, "codes": list(subtext.ERROR_CODES), ' +
        '"sync": [m for m in subtext.OPERATIONS.values() if not callable(getattr(Subtext, m, None))], ' +
        '"async": [m for m in subtext.OPERATIONS.values() if not callable(getattr(AsyncSubtext, m, None))], ' +
        '"classes": sorted({c.__name__ for c in subtext.ERRORS_BY_CODE.values()}), ' +
        '"typed": sorted(m for m, f in vars(A).items() if inspect.iscoroutinefunction(f)), ' +
        '"public": {c.__name__: sorted(m for m in dir(c) if not m.startswith("_") and callable(getattr(c, m))) ' +
        'for c in (Subtext, AsyncSubtext)}}))',
    ]);
    const py = JSON.parse(stdout);
    expect(Object.keys(py.ops).sort()).toEqual([...served].sort());
    expect(py.sync).toEqual([]);
    expect(py.async).toEqual([]);
    // The async client's type hints: an awaitable signature for each operation, and nothing else.
    expect(py.typed).toEqual(Object.values(py.ops as Record<string, string>).sort());
    // And the other way: every public method of either client is an operation's, or one of these helpers.
    const methods = Object.values(py.ops as Record<string, string>);
    expect(py.public.Subtext).toEqual([...methods, 'close', 'iter_articles'].sort());
    expect(py.public.AsyncSubtext).toEqual([...methods, 'aclose', 'iter_articles'].sort());
    expect(py.codes).toEqual([...ERROR_CODES]);
    expect(py.classes).toHaveLength(ERROR_CODES.length);
  });

  it('passes, sync and async: the upstream README examples, every exception, the CLI, a real 429, frames, listings, batches, watches and a signed delivery', async () => {
    const keys = await Promise.all([
      h.s.newKey({ credits: 500, rateLimit: 100_000 }),
      h.s.newKey({ credits: 0 }),
      h.s.newKey({ credits: 10, rateLimit: 1 }),
      bare.s.newKey({ credits: 50 }),
    ]);
    const env = {
      ...process.env,
      SUBTEXT_URL: h.s.url,
      SUBTEXT_API_KEY: keys[0].key,
      SUBTEXT_TEST_BROKE_KEY: keys[1].key,
      SUBTEXT_TEST_LIMITED_KEY: keys[2].key,
      SUBTEXT_TEST_NO_LLM_URL: bare.s.url,
      SUBTEXT_TEST_NO_LLM_KEY: keys[3].key,
      SUBTEXT_TEST_IDS: JSON.stringify(ID),
      SUBTEXT_TEST_BROWSE: JSON.stringify(BROWSE),
      SUBTEXT_TEST_MEDIA_URL: media.url('/clip.mp4'),
      SUBTEXT_TEST_WEBHOOK_SECRET: await h.s.deps.webhooks.secretFor(keys[0].accountId),
      PATH: `${join(dir, 'venv/bin')}:${process.env.PATH}`,
    };
    const { code, output } = await pytest(env);
    expect(code, output).toBe(0);
    expect(output).toMatch(/\d+ passed/);
    expect(output).not.toMatch(/skipped|xfail|error/i);
  }, 120_000);
});

function pytest(env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(python, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', join(PACKAGE, 'tests')], {
      env,
      cwd: dir,
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => done({ code, output }));
  });
}
