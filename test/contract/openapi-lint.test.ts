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
      const { stdout } = await run(
        process.execPath,
        ['node_modules/@redocly/cli/bin/cli.js', 'lint', file, '--config', 'redocly.yaml', '--format', 'json'],
        { env },
      ).catch((err) => {
        throw new Error(`redocly lint failed:\n${err.stdout}\n${err.stderr}`);
      });
      const report = JSON.parse(stdout.slice(stdout.indexOf('{')));
      expect(
        report.problems.map((p: any) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer}`),
      ).toEqual([]);
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
      if (item.servers) continue; // outside /api/v1: see the next test
      for (const [method, op] of Object.entries<any>(item)) {
        const where = `${method} ${path}`;
        for (const [status, r] of Object.entries<any>(op.responses)) {
          expect(r.headers?.['x-request-id'], `${where} ${status}`).toBeDefined();
          if (!['401', '413', '414', '415'].includes(status))
            expect(r.headers?.['RateLimit-Limit'], `${where} ${status}`).toBeDefined();
        }
        for (const status of ['429', '503'])
          expect(op.responses[status].headers['Retry-After'], `${where} ${status}`).toBeDefined();
        expect(op.responses['401'].headers['WWW-Authenticate'], where).toBeDefined();
        expect(op.responses['414'], where).toBeDefined();
        if (op.requestBody)
          for (const status of ['413', '415']) expect(op.responses[status], `${where} ${status}`).toBeDefined();
      }
    }
    expect(Object.keys(doc.components.headers).sort()).toEqual([
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Retry-After',
      'WWW-Authenticate',
      'x-request-id',
    ]);
  });

  it('documents the OAuth and operations endpoints at the origin, each answering as documented', async () => {
    const outside = Object.entries<any>(doc.paths).filter(([, item]) => item.servers);
    expect(outside.map(([path]) => path).sort()).toEqual([
      '/.well-known/oauth-authorization-server',
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
      '/healthz',
      '/metrics',
      '/oauth/authorize',
      '/oauth/register',
      '/oauth/revoke',
      '/oauth/token',
      '/readyz',
    ]);
    for (const [path, item] of outside) {
      expect(
        item.servers.map((x: { url: string }) => x.url),
        path,
      ).toEqual([PUBLIC]);
      for (const [method, op] of Object.entries<any>(item)) {
        if (method === 'servers') continue;
        const where = `${method} ${path}`;
        // No API key: public, except /metrics with the operator's token.
        expect(op.security, where).toEqual(path === '/metrics' ? [{ metricsToken: [] }] : []);
        for (const [status, r] of Object.entries<any>(op.responses))
          expect(r.headers?.['x-request-id'], `${where} ${status}`).toBeDefined();
        expect(op.responses['414'], where).toBeDefined();
        // OAuth's own error shape on the OAuth endpoints that answer JSON errors.
        if (path === '/oauth/token' || path === '/oauth/register')
          expect(op.responses['400'].content['application/json'].schema.$ref, where).toBe(
            '#/components/schemas/OAuthError',
          );
      }
    }
    // The documented GETs exist and answer JSON 200 here (this server has no METRICS_TOKEN: /metrics is its 404).
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-authorization-server',
      '/healthz',
      '/readyz',
    ]) {
      const res = await fetch(new URL(path, s.url));
      expect([path, res.status, res.headers.get('content-type')]).toEqual([path, 200, 'application/json']);
      const body = await res.json();
      for (const key of doc.paths[path].get.responses['200'].content['application/json'].schema.required)
        expect(body, `${path} ${key}`).toHaveProperty(key);
    }
    const metrics = await fetch(new URL('/metrics', s.url));
    expect(metrics.status).toBe(404);
    await metrics.body?.cancel();
    // The token endpoint answers a bad grant in OAuth's shape, as documented.
    const token = await fetch(new URL('/oauth/token', s.url), {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'password', client_id: 'x' }),
    });
    expect(token.status).toBe(400);
    expect(await token.json()).toEqual({ error: 'unsupported_grant_type', error_description: expect.any(String) });
  });

  it('has no unused components', () => {
    const text = JSON.stringify(doc.paths) + JSON.stringify(doc.components);
    for (const [kind, entries] of Object.entries<any>(doc.components)) {
      if (kind === 'securitySchemes') continue;
      for (const name of Object.keys(entries))
        expect(text, `${kind}/${name}`).toContain(`"#/components/${kind}/${name}"`);
    }
  });
});
