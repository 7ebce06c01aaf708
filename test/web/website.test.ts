// The website end to end in a real browser, against the real server and database: an account, a key used over
// REST, credits spent and seen, a key revoked, the service used from the page, articles searched.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../support/clients.ts';
import { freshVideoId } from '../support/fake-video-source.ts';
import { cachedTestVideo } from '../support/make-video.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { startVideoServer, type VideoServer } from '../support/video-server.ts';
import { launchBrowser, screenshotPath } from './browser.ts';
import { siteVideoSource } from './site-video-source.ts';
import { grantCredits } from '../support/stores.ts';

describe('the website in a browser', () => {
  let media: VideoServer;
  let s: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const email = `web-${Date.now()}@example.com`;
  let key = '';
  const video = freshVideoId();

  beforeAll(async () => {
    media = await startVideoServer({ '/videoplayback': { file: await cachedTestVideo({ seconds: 120 }) } });
    s = await startTestServer(
      { YOUTUBE_BASE_URL: media.origin, DAILY_FREE_CREDITS: '10' },
      { youtube: siteVideoSource(media.url('/videoplayback')) },
    );
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.on('dialog', (d) => void d.accept());
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await media?.close();
  });

  const accountId = async () =>
    (await s.deps.sql<{ id: string }[]>`select id from accounts where email = ${email}`)[0]!.id;

  it('signs up and lands on the keys page', async () => {
    await page.goto(`${s.url}/sign-up`);
    await page.screenshot({ path: screenshotPath('sign-up') });
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${s.url}/keys`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('API keys');
    expect(await page.locator('h1').textContent()).toBe('API keys');
    expect(await page.locator('header .email').textContent()).toBe(email);
  });

  it('creates a key, shown once, that works over REST', async () => {
    await page.getByLabel('Name').fill('laptop');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByLabel('New key laptop');
    await shown.waitFor();
    key = await shown.inputValue();
    expect(key).toMatch(/^sk_[A-Za-z0-9]{32}$/);
    expect(await page.locator('.once .warning').textContent()).toContain('only time it is shown');
    await page.locator('table.keys tbody tr').first().waitFor();
    expect(await page.locator('table.keys tbody tr').count()).toBe(1);
    await page.screenshot({ path: screenshotPath('keys'), fullPage: true });

    const r = await rest(s.url, 'GET', '/credits', { key, header: 'x-api-key' });
    expect(r.status).toBe(200);
    expect(r.json.balance).toBe(10);
  });

  it('fetches a transcript and a frame in the browser, spending the same credits', async () => {
    await grantCredits(s.deps.sql, await accountId(), 20);
    await page.getByRole('link', { name: 'Videos' }).click();
    await page.getByLabel('Video link or id').fill(`https://www.youtube.com/watch?v=${video}`);
    await page.getByRole('button', { name: 'Open video' }).click();
    await page.getByRole('heading', { name: `Video ${video}` }).waitFor();
    expect(await page.locator('form.inline .cost').first().textContent()).toContain('Captions cost 2 credits');

    await page.getByRole('button', { name: 'Get transcript' }).click();
    await page.locator('ol.segments li').first().waitFor();
    expect(await page.locator('ol.segments li').count()).toBe(12);
    const stamp = page.locator('ol.segments li a.ts').nth(3);
    expect(await stamp.textContent()).toBe('0:15');
    expect(await stamp.getAttribute('href')).toBe(`https://www.youtube.com/watch?v=${video}&t=15s`);
    expect(await page.getByText('Charged 2 credits.').count()).toBe(1);

    // Downloads are made in the page from the segments.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'SRT' }).first().click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${video}.en.srt`);

    await page.getByLabel('Time').fill('0:07');
    await page.getByRole('button', { name: 'Capture frame' }).click();
    const img = page.locator('.frames img').first();
    await img.waitFor({ timeout: 30_000 });
    await page.waitForFunction(
      () => (document.querySelector('.frames img') as HTMLImageElement | null)?.naturalWidth === 640,
      null,
      { timeout: 15_000 },
    );
    await page.screenshot({ path: screenshotPath('service'), fullPage: true });

    const ledger = await s.deps.sql<{ operation: string; delta: number }[]>`
      select operation, delta from credit_ledger where account_id = ${await accountId()} and kind = 'charge' order by id`;
    expect(ledger).toEqual([
      { operation: 'subtitles', delta: -2 },
      { operation: 'frame', delta: -1 },
    ]);
  });

  it('writes an article in the browser and finds it by search', async () => {
    await page.getByLabel('Language', { exact: true }).last().fill('en');
    await page.getByRole('button', { name: 'Generate article' }).click();
    await page.locator('article.article h2').first().waitFor({ timeout: 30_000 });

    await page.getByRole('link', { name: 'Articles' }).click();
    await page.getByRole('searchbox', { name: 'Search' }).fill('bread');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.locator('ol.hits li').first().waitFor();
    expect(await page.locator('ol.hits li').count()).toBe(1);
    await page.screenshot({ path: screenshotPath('articles'), fullPage: true });
    await page.locator('ol.hits li h2 a').click();
    await page.locator('article.article h1').waitFor();
    expect(page.url()).toMatch(/\/articles\/art_/);
  });

  it('shows a charge made with the key over REST on the usage page', async () => {
    const other = freshVideoId();
    const r = await rest(s.url, 'POST', '/subtitles', { key, body: { videoId: other } });
    expect(r.status).toBe(200);
    expect(r.json.creditsCharged).toBe(2);

    await page.getByRole('link', { name: 'Credits & usage' }).click();
    await page.locator('table.ledger').waitFor();
    const rows = await page.locator('table.ledger tbody tr').allTextContents();
    expect(rows[0]).toContain(other);
    expect(rows[0]).toContain('Transcript');
    expect(rows[0]).toContain('-2');
    // 10 free + 20 granted - 2 - 1 - 1 (article) - 2
    expect(await page.locator('[data-stat="balance"] .stat-value').textContent()).toBe('24');
    expect(await page.locator('[data-stat="free"] .stat-value').textContent()).toBe('4 of 10');
    expect(await page.locator('svg.chart rect.bar').count()).toBe(30);
    await page.screenshot({ path: screenshotPath('usage'), fullPage: true });
  });

  it('revokes the key, and the API refuses it at once', async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('button', { name: 'Revoke key laptop' }).click();
    await page.locator('.status-revoked').waitFor();
    const r = await rest(s.url, 'GET', '/credits', { key });
    expect(r.status).toBe(401);
    expect(r.json.error.code).toBe('INVALID_API_KEY');
  });

  it('connect page shows both header forms, MCP configs and a tRPC example', async () => {
    await page.getByRole('link', { name: 'Connect', exact: true }).click();
    const text = await page.locator('main').textContent();
    expect(text).toContain('Authorization: Bearer sk_your_key_here');
    expect(text).toContain('x-api-key: sk_your_key_here');
    expect(text).toContain(`${s.url}/mcp`);
    expect(text).toContain('claude mcp add --transport http');
    expect(text).toContain('createTRPCClient<AppRouter>');
    await page.screenshot({ path: screenshotPath('connect'), fullPage: true });
  });

  it('fits a phone screen and is keyboard navigable', async () => {
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      storageState: await context.storageState(),
    });
    const p = await phone.newPage();
    await p.goto(`${s.url}/keys`);
    await p.locator('table.keys tbody tr').first().waitFor();
    const overflow = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await p.screenshot({ path: screenshotPath('keys-phone'), fullPage: true });
    // The first Tab reaches the skip link, which is then visible.
    await p.keyboard.press('Tab');
    expect(await p.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    // Focus is visible: the outline is drawn around whatever has focus.
    await p.keyboard.press('Tab');
    const outline = await p.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(outline).toBe('solid');
    await phone.close();
  });

  it('signs out, and the pages ask to sign in again', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${s.url}/sign-in`);
    await page.goto(`${s.url}/usage`);
    await page.waitForURL(/\/sign-in\?next=%2Fusage/);
    await page.screenshot({ path: screenshotPath('sign-in') });
  });
});
