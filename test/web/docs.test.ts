// /docs: the interactive reference, served from our own origin (no CDN), naming the Swagger UI version it runs, with
// a way back to the site; in a browser, every operation of the OpenAPI document is listed and "Try it out" calls
// this server with the key given to "Authorize".
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { launchBrowser, screenshotPath } from './browser.ts';

const SWAGGER_UI = JSON.parse(readFileSync('node_modules/swagger-ui-dist/package.json', 'utf8')).version as string;

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ DAILY_FREE_CREDITS: '7' });
});
afterAll(() => s?.close());

describe('/docs over HTTP', () => {
  it('is a page of our own origin that loads the packaged Swagger UI and names its version', async () => {
    const res = await fetch(`${s.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self';/);
    const html = await res.text();
    expect(html).toContain(`Swagger UI ${SWAGGER_UI}`);
    expect(html).toContain('<a href="/">&larr; Subtext</a>');
    // Every script, style and icon is ours: nothing from another host.
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.filter((r) => /^(https?:)?\/\//.test(r))).toEqual([]);
    for (const ref of refs.filter((r) => r.startsWith('/docs/assets/') || r === '/favicon.svg')) {
      const asset = await fetch(`${s.url}${ref}`);
      expect(asset.status, ref).toBe(200);
      expect(asset.headers.get('content-type'), ref).toMatch(/^(text\/(css|javascript)|image\/svg\+xml)/);
      if (ref.includes(`v=${SWAGGER_UI}`)) expect(asset.headers.get('cache-control')).toContain('immutable');
      await asset.arrayBuffer();
    }
    expect((await fetch(`${s.url}/docs/assets/nothing.js`)).status).toBe(404);
  });
});

describe('/docs in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);
  afterAll(() => browser?.close());

  it('lists every operation, and "Try it out" answers with the key given to Authorize', async () => {
    const { key } = await s.newKey();
    const doc = await (await fetch(`${s.url}/api/v1/openapi.json`)).json();
    // A path item's keys are its methods, and `servers` for the paths at the origin (OAuth, /healthz...).
    const methods = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
    const operations = Object.values<Record<string, unknown>>(doc.paths).reduce(
      (n, item) => n + Object.keys(item).filter((k) => methods.has(k)).length,
      0,
    );
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => void (m.type() === 'error' && problems.push(m.text())));
    await page.goto(`${s.url}/docs`);
    await page.locator('.opblock').first().waitFor();
    expect(await page.locator('.opblock').count()).toBe(operations);

    await page.getByRole('button', { name: 'Authorize' }).first().click();
    // The first scheme is the bearer one (the document lists Authorization: Bearer, then x-api-key).
    const scheme = page.locator('.modal-ux .auth-container').first();
    await scheme.locator('input').first().fill(key);
    await scheme.locator('button.authorize').click();
    await scheme.locator('button.btn-done').click();

    const credits = page.locator('.opblock-get', { has: page.locator('[data-path="/credits"]') }).first();
    await credits.locator('.opblock-summary').click();
    await credits.getByRole('button', { name: 'Try it out' }).click();
    await credits.getByRole('button', { name: 'Execute' }).click();
    const body = credits.locator('.responses-wrapper .live-responses-table .response-col_description pre').first();
    await body.waitFor();
    expect(JSON.parse((await body.textContent())!)).toMatchObject({ balance: 7, dailyAllowance: 7 });
    expect(await credits.locator('.live-responses-table tbody .response-col_status').first().textContent()).toContain(
      '200',
    );
    await page.screenshot({ path: screenshotPath('docs'), fullPage: false });

    await page.getByRole('link', { name: '← Subtext' }).click();
    await page.waitForURL(`${s.url}/`);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);
});
