// The generated OpenAPI document passes `redocly lint` (the recommended rules, see redocly.yaml) with no problem,
// and says what the service answers: license, servers from PUBLIC_URL, the headers each response carries, only
// used components.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const run = promisify(execFile);
const PUBLIC = 'https://subtext.example';

let s: TestServer;
let doc: any;
beforeAll(async () => {
  s = await startTestServer({ PUBLIC_URL: PUBLIC });
  doc = await (await fetch(`${s.url}/api/v1/openapi.json`)).json();
});
afterAll(() => s?.close());

describe('the OpenAPI document', () => {
  it('passes redocly lint with no errors and no warnings', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      await writeFile(file, JSON.stringify(doc));
      // Offline: no telemetry, no update check.
      const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
      const { stdout } = await run(process.execPath, ['node_modules/@redocly/cli/bin/cli.js', 'lint', file, '--config', 'redocly.yaml', '--format', 'json'], { env }).catch((err) => {
        throw new Error(`redocly lint failed:\n${err.stdout}\n${err.stderr}`);
      });
      const report = JSON.parse(stdout.slice(stdout.indexOf('{')));
      expect(report.problems.map((p: any) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer}`)).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('has a license, and servers follows PUBLIC_URL', () => {
    expect(doc.info.license.name).toBeTruthy();
    expect(doc.servers).toEqual([{ url: `${PUBLIC}/api/v1` }]);
  });

  it('declares the headers the service sends on the responses that carry them', () => {
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        const where = `${method} ${path}`;
        for (const [status, r] of Object.entries<any>(op.responses)) {
          expect(r.headers?.['x-request-id'], `${where} ${status}`).toBeDefined();
          if (!['401', '413', '414', '415'].includes(status)) expect(r.headers?.['RateLimit-Limit'], `${where} ${status}`).toBeDefined();
        }
        for (const status of ['429', '503']) expect(op.responses[status].headers['Retry-After'], `${where} ${status}`).toBeDefined();
        expect(op.responses['401'].headers['WWW-Authenticate'], where).toBeDefined();
        expect(op.responses['414'], where).toBeDefined();
        if (op.requestBody) for (const status of ['413', '415']) expect(op.responses[status], `${where} ${status}`).toBeDefined();
      }
    }
    expect(Object.keys(doc.components.headers).sort()).toEqual(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'WWW-Authenticate', 'x-request-id']);
  });

  it('has no unused components', () => {
    const text = JSON.stringify(doc.paths) + JSON.stringify(doc.components);
    for (const [kind, entries] of Object.entries<any>(doc.components)) {
      if (kind === 'securitySchemes') continue;
      for (const name of Object.keys(entries)) expect(text, `${kind}/${name}`).toContain(`"#/components/${kind}/${name}"`);
    }
  });
});
