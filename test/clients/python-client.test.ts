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
import { ID, startRecordedHarness, type Harness } from '../transcripts/recorded-youtube.ts';

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
describe.skipIf(!sharedAvailable)('the pytest suite against a live service', () => {
  beforeAll(async () => {
    fake = await startFakeAnthropic(modelReply);
    [h, bare] = await Promise.all([
      startRecordedHarness({ ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: fake.url, YOUTUBE_COOLDOWN_SECONDS: '0' }),
      startRecordedHarness(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([h?.close(), bare?.close()]);
    await fake?.close();
  });

  it('has a method for every operation of the served document, and an exception for every error code', async () => {
    const doc = await (await fetch(`${h.s.url}/api/v1/openapi.json`)).json();
    const served = Object.values(doc.paths as Record<string, Record<string, { operationId?: string }>>)
      .filter((ops) => !('servers' in ops))
      .flatMap((ops) => Object.values(ops).flatMap((o) => (o.operationId ? [o.operationId] : [])));
    const { stdout } = await run(python, [
      '-c',
      'import json, subtext; from subtext.client import Subtext, AsyncSubtext; ' +
        'print(json.dumps({"ops": subtext.OPERATIONS, "codes": list(subtext.ERROR_CODES), ' +
        '"sync": [m for m in subtext.OPERATIONS.values() if not callable(getattr(Subtext, m, None))], ' +
        '"async": [m for m in subtext.OPERATIONS.values() if not callable(getattr(AsyncSubtext, m, None))], ' +
        '"classes": sorted({c.__name__ for c in subtext.ERRORS_BY_CODE.values()})}))',
    ]);
    const py = JSON.parse(stdout);
    expect(Object.keys(py.ops).sort()).toEqual([...served].sort());
    expect(py.sync).toEqual([]);
    expect(py.async).toEqual([]);
    expect(py.codes).toEqual([...ERROR_CODES]);
    expect(py.classes).toHaveLength(ERROR_CODES.length);
  });

  it('passes, sync and async, the upstream README examples, every exception, the CLI and a real 429', async () => {
    const keys = await Promise.all([
      h.s.newKey({ credits: 500 }),
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
