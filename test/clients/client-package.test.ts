// The client package as a frontend gets it: packed with `npm pack`, installed into a separate package from the
// tarball (install-packed.ts), type-checked by that package's tsc (a wrong field fails it), and its calls run in
// their own process against the real service (HTTP, PostgreSQL, recorded YouTube answers).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedAvailable } from '../support/fixture-files.ts';
import { balanceOf, ID, STYLED_SEGMENTS, startRecordedHarness, type Harness } from '../transcripts/recorded-youtube.ts';
import { restDocument } from '../../clients/typescript/generate/generate.ts';
import { installConsumer, packClient, run, tsc } from './install-packed.ts';

let dir: string;
let files: string[];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'subtext-consumer-'));
  files = await packClient(dir);
  await installConsumer(dir);
}, 180_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

const read = (path: string) => readFile(join(dir, 'node_modules/@subtext/client', path), 'utf8');

describe('the packed client package', () => {
  it('holds the built client and its declarations, nothing of the server', async () => {
    expect(files.filter((f) => !f.startsWith('dist/'))).toEqual(['README.md', 'package.json']);
    expect(files).toEqual(
      expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'dist/generated/app-router.d.ts']),
    );
    expect(files).toEqual(expect.arrayContaining(['dist/ai-sdk.js', 'dist/langchain.js', 'dist/agent-operations.js']));
    // Every import of every shipped file: the client libraries it depends on, its own files, or the agent
    // frameworks' packages, peers that only the /ai-sdk and /langchain entries import (not bundled, not installed).
    const allowed = new Set(['@trpc/client', '@trpc/server', 'openapi-fetch']);
    const peers = new Set([
      'ai',
      'zod',
      '@langchain/core/document_loaders/base',
      '@langchain/core/documents',
      '@langchain/core/tools',
    ]);
    const peerUsers = new Set(['dist/ai-sdk', 'dist/langchain', 'dist/agent-operations']);
    for (const file of files.filter((f) => f.startsWith('dist/'))) {
      const text = await read(file);
      const mayUsePeers = peerUsers.has(file.replace(/\.(d\.ts|js)$/, ''));
      for (const [, spec] of text.matchAll(/(?:from|import\()\s*['"]([^'"]+)['"]/g)) {
        const ok = spec!.startsWith('./') || allowed.has(spec!) || (mayUsePeers && peers.has(spec!));
        expect(ok, `${file} imports ${spec}`).toBe(true);
      }
    }
    const manifest = JSON.parse(await read('package.json'));
    expect(Object.keys(manifest.dependencies).sort()).toEqual([...allowed].sort());
    expect(Object.keys(manifest.peerDependencies).sort()).toEqual(['@langchain/core', 'ai', 'zod']);
    expect(Object.values(manifest.peerDependenciesMeta)).toEqual([
      { optional: true },
      { optional: true },
      { optional: true },
    ]);
    expect(Object.keys(manifest.exports)).toEqual(['.', './ai-sdk', './langchain']);
  });

  it('fails the consumer’s tsc on exactly the wrong fields', async () => {
    const { code, output } = await tsc(dir, 'tsconfig.wrong.json');
    expect(code).not.toBe(0);
    const source = await readFile(join(dir, 'wrong-fields.ts'), 'utf8');
    const marked = source.split('\n').flatMap((line, i) => (line.includes('// wrong:') ? [i + 1] : []));
    const failed = [...output.matchAll(/^wrong-fields\.ts\((\d+),\d+\): error TS\d+/gm)].map((m) => Number(m[1]));
    expect(marked).toHaveLength(7);
    expect(
      [...new Set(failed)].sort((a, b) => a - b),
      output,
    ).toEqual(marked);
  }, 60_000);
});

let h: Harness;
describe.skipIf(!sharedAvailable)('the packed client against a live service', () => {
  beforeAll(async () => {
    h = await startRecordedHarness();
  });
  afterAll(() => h?.close());

  it('is typed from the document the service serves at /api/v1/openapi.json', async () => {
    const served = await (await fetch(`${h.s.url}/api/v1/openapi.json`)).json();
    const generatedFrom = restDocument();
    const apiPaths = Object.keys(served.paths).filter((p) => !served.paths[p].servers);
    expect(apiPaths).toEqual(Object.keys(generatedFrom.paths));
    for (const path of apiPaths) expect(generatedFrom.paths[path], path).toEqual(served.paths[path]);
    expect(generatedFrom.components.schemas).toEqual({ ...served.components.schemas, OAuthError: undefined });
  });

  it('type-checks a frontend’s calls and runs them over tRPC and REST', async () => {
    const built = await tsc(dir, 'tsconfig.json');
    expect(built, built.output).toMatchObject({ code: 0 });
    const { key } = await h.s.newKey({ credits: 10 });
    const { stdout } = await run(process.execPath, [join(dir, 'dist/calls.js'), h.s.url, key, ID.captions9], {
      cwd: dir,
    });
    const seen = JSON.parse(stdout);
    expect(seen).toEqual({
      balanceBefore: 10,
      trpc: {
        source: 'manual',
        segmentCount: STYLED_SEGMENTS.count,
        first: STYLED_SEGMENTS.first,
        cached: false,
        charged: 2,
        content: expect.stringContaining(STYLED_SEGMENTS.first.text),
      },
      rest: {
        status: 200,
        segmentCount: STYLED_SEGMENTS.count,
        segments: 2,
        nextOffset: 2,
        cached: true,
        charged: 0,
        vttStart: 'WEBVTT',
      },
      title: expect.any(String),
      trpcError: 'JOB_NOT_FOUND',
      restError: { status: 404, code: 'JOB_NOT_FOUND' },
      balanceAfter: 8,
    });
    expect(await balanceOf(h.s, key)).toBe(8);
  }, 120_000);
});
