// Issue 37 item 3: a browser app never holds a key. A page on another origin (listed in API_ALLOWED_ORIGINS) signs its
// user in through the service's own authorization server (public client, PKCE, scope "api"), calls tRPC with
// @subtext/client's getToken, rotates its refresh token, and no request or storage of it ever carries an sk_ key.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { needsSystemTool } from '../support/system-needs.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { launchBrowser } from '../web/browser.ts';
import { newEmail, sessionClient } from '../web/session-client.ts';

needsSystemTool('chromium');

const PASSWORD = 'a long enough password';

/** The app's origin: its page and @subtext/client bundled for browsers, as a frontend's build would ship it. */
async function startApp(): Promise<{ origin: string; server: Server }> {
  const bundle = await build({
    entryPoints: ['clients/typescript/src/index.ts'],
    bundle: true,
    format: 'iife',
    globalName: 'Subtext',
    platform: 'browser',
    write: false,
  });
  const client = bundle.outputFiles[0]!.text;
  const page = readFileSync(new URL('./browser-app/index.html', import.meta.url), 'utf8');
  const server = createServer((req, res) => {
    const path = new URL(req.url!, 'http://x').pathname;
    if (path === '/client.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(client);
    else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  // localhost: another site than the service's 127.0.0.1, so nothing of the service's cookies is the page's.
  return { origin: `http://localhost:${(server.address() as AddressInfo).port}`, server };
}

describe('a browser app signs in with OAuth and calls tRPC without a key', () => {
  let s: TestServer;
  let app: { origin: string; server: Server };
  let browser: Browser;
  beforeAll(async () => {
    app = await startApp();
    s = await startTestServer({ DAILY_FREE_CREDITS: '10', API_ALLOWED_ORIGINS: app.origin });
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await new Promise((r) => app?.server.close(r));
  });

  it('signs in through the real authorization server, calls tRPC with its token, holds no key', async () => {
    const email = newEmail();
    const web = sessionClient(s.url);
    expect((await web.signUp(email, PASSWORD)).status).toBe(200);

    const page = await browser.newPage();
    const sent: string[] = [];
    page.on('request', (r) => sent.push(`${r.url()} ${JSON.stringify(r.headers())} ${r.postData() ?? ''}`));
    try {
      await page.goto(`${app.origin}/?service=${encodeURIComponent(s.url)}`);
      await page.waitForURL(/\/sign-in\?next=/);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/oauth\/authorize\?/);
      expect(await page.locator('#scopes').textContent()).toMatch(/Call the Subtext API/);
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.waitForURL(`${app.origin}/callback?**`);
      await expect.poll(() => page.locator('#status').textContent(), { timeout: 20_000 }).toBe('signed in');
      const result = JSON.parse((await page.locator('#result').textContent())!);
      expect(result).toEqual({
        scope: 'api',
        credits: expect.objectContaining({ balance: 10 }),
        again: expect.objectContaining({ balance: 10 }),
      });

      // The tRPC calls went cross-origin with a Bearer token, never a key, never the service's cookie.
      const trpc = sent.filter((r) => r.startsWith(`${s.url}/trpc/credits.get`));
      expect(trpc).toHaveLength(2);
      for (const r of trpc) {
        expect(r).toMatch(/"authorization":"Bearer ey/);
        expect(r).not.toMatch(/cookie/);
      }
      expect(sent.join('\n')).not.toMatch(/sk_/);
      const stored = await page.evaluate(
        () => JSON.stringify({ ...localStorage, ...sessionStorage }) + document.cookie,
      );
      expect(stored).not.toMatch(/sk_|ey[\w-]+\.ey/);
      // The account has no API key at all: the app runs on its grant.
      const keys = await web.query('keys.list');
      expect(keys.json.result.data).toEqual([]);
      const grants = await web.query('connections.list');
      expect(grants.json.result.data).toEqual([
        expect.objectContaining({ clientName: 'Browser test app', scope: 'api', status: 'active' }),
      ]);

      // The same client handed a key in a browser says keys are for servers.
      const warned = new Promise<string>((resolve) =>
        page.on('console', (m) => m.type() === 'warning' && resolve(m.text())),
      );
      await page.evaluate((url) => {
        (window as unknown as { Subtext: { createSubtextClient(o: object): unknown } }).Subtext.createSubtextClient({
          url,
          key: 'sk_pasted_by_mistake',
        });
      }, s.url);
      expect(await warned).toMatch(/Keys are for servers only/);
    } finally {
      await page.close();
    }
  }, 90_000);
});
