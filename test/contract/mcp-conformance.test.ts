// The official MCP conformance suite (@modelcontextprotocol/conformance, pinned) against the real service, once per
// protocol revision it serves. It cannot send a key, so a loopback proxy adds one and forwards the rest as sent
// (Host and Origin included, for the DNS-rebinding scenario). Scenarios that cannot apply are listed, with a
// reason each, in mcp-conformance/not-applicable.yaml; any other failure, or a listed one that passes, fails here.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthProxy } from '../support/auth-proxy.ts';
import { fakeVideoSource } from '../support/fake-video-source.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const run = promisify(execFile);
const SUITE = 'node_modules/@modelcontextprotocol/conformance/dist/index.js';
const NOT_APPLICABLE = 'test/contract/mcp-conformance/not-applicable.yaml';

let s: TestServer;
let proxy: Awaited<ReturnType<typeof startAuthProxy>>;
beforeAll(async () => {
  s = await startTestServer({}, { youtube: fakeVideoSource() });
  const { key } = await s.newKey({ credits: 100, rateLimit: 100_000 });
  proxy = await startAuthProxy(s.url, `Bearer ${key}`);
  // The proxy is the service's public face: its origin is the one browsers may call /mcp from.
  s.deps.publicUrl = proxy.url;
});
afterAll(async () => {
  await proxy?.close();
  await s?.close();
});

/** Runs the suite at one revision; returns its exit code, output, and each scenario's check counts. */
async function conformance(selection: string[]) {
  const out = await mkdtemp(join(tmpdir(), 'mcp-conformance-'));
  try {
    const args = [
      SUITE,
      'server',
      '--url',
      `${proxy.url}/mcp`,
      ...selection,
      '--expected-failures',
      NOT_APPLICABLE,
      '-o',
      out,
    ];
    const result = await run(process.execPath, args, {
      env: { ...process.env, NO_COLOR: '1' },
      maxBuffer: 16 * 1024 * 1024,
    }).then(
      (r) => ({ code: 0, output: r.stdout + r.stderr }),
      (err) => ({ code: err.code as number, output: `${err.stdout}${err.stderr}` }),
    );
    const scenarios: Record<string, { passed: number; failed: number }> = {};
    for (const dir of await readdir(out)) {
      const checks: { status: string }[] = JSON.parse(await readFile(join(out, dir, 'checks.json'), 'utf8'));
      const name = dir.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
      scenarios[name] = {
        passed: checks.filter((c) => c.status === 'SUCCESS').length,
        failed: checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING').length,
      };
    }
    return { ...result, scenarios };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

describe('MCP conformance suite', () => {
  for (const [revision, selection] of [
    ['2025-06-18', ['--spec-version', '2025-06-18']],
    ['2025-11-25', ['--spec-version', '2025-11-25']],
    ['2026-07-28', ['--requirements', '2026-07-28']],
  ] as const) {
    it(`${revision}: every applicable scenario passes`, async () => {
      const r = await conformance([...selection]);
      expect(r.code, r.output.split('=== SUMMARY ===')[1] ?? r.output).toBe(0);
      expect(r.output).toContain('Baseline check passed');
      // The scenarios that must apply to any tools server did run and pass.
      for (const name of [
        'tools-list',
        'resources-list',
        'prompts-list',
        ...(revision === '2025-06-18' ? ['server-initialize', 'ping'] : []),
        ...(revision !== '2025-06-18' ? ['dns-rebinding-protection'] : []),
        ...(revision === '2026-07-28'
          ? ['server-stateless', 'http-header-validation', 'sep-2164-resource-not-found', 'caching']
          : []),
      ]) {
        expect(r.scenarios[name], name).toBeDefined();
        expect(r.scenarios[name]!.passed, name).toBeGreaterThan(0);
      }
      expect(r.scenarios['dns-rebinding-protection']?.failed ?? 0).toBe(0);
    }, 120_000);
  }
});
