// The website's /watches page in Chromium: a signed-in account creates a watch with the form, sees it listed (as the
// API lists it), and deletes it; a refused creation shows the service's message.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../support/clients.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { createApiKey } from '../support/stores.ts';
import { launchBrowser } from './browser.ts';

describe('the watches page in a browser', () => {
  let s: TestServer;
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    [s, browser] = await Promise.all([startTestServer({ WATCH_MIN_INTERVAL_SECONDS: '600' }), launchBrowser()]);
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it('creates a watch with the form, lists it and deletes it', async () => {
    const email = `watches-${Date.now()}@example.com`;
    await page.goto(`${s.url}/sign-up`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${s.url}/keys`);
    await page.getByRole('link', { name: 'Watches' }).click();
    await page.waitForURL(`${s.url}/watches`);
    await expect.poll(() => page.getByText('No watches yet.').count()).toBe(1);

    // Below the service's minimum interval: refused with its message.
    await page.getByLabel('Watch a').selectOption('search');
    await page.getByLabel('URL, id or query').fill('creative commons');
    await page.getByLabel('Check every (seconds)').fill('60');
    await page.getByRole('button', { name: 'Create watch' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/at least 600/);

    await page.getByLabel('Check every (seconds)').fill('900');
    await page.getByRole('button', { name: 'Create watch' }).click();
    const rows = page.locator('table.watches tbody tr');
    await rows.first().waitFor();
    const cells = await rows.first().locator('td').allTextContents();
    expect(cells.slice(0, 3)).toEqual(['Search “creative commons”', 'active', '900 s']);

    const [account] = await s.deps.sql<{ id: string }[]>`select id from accounts where email = ${email}`;
    const { key } = await createApiKey(s.deps.sql, { accountId: account!.id, name: 'watches' });
    const listed = (await rest(s.url, 'GET', '/watches', { key })).json.watches;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ target: { search: { query: 'creative commons' } }, intervalSeconds: 900 });

    await page.getByRole('button', { name: `Delete ${listed[0].id}` }).click();
    await expect.poll(() => page.getByText('No watches yet.').count()).toBe(1);
    expect((await rest(s.url, 'GET', '/watches', { key })).json.watches).toEqual([]);
  }, 120_000);
});
