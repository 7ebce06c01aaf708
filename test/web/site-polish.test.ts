// Details a newcomer notices first, checked in a real browser: the favicon, equal buttons on the home page, and
// every label of the usage chart inside the chart.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { launchBrowser } from './browser.ts';

describe('site polish in a browser', () => {
  let s: TestServer;
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    s = await startTestServer({ DAILY_FREE_CREDITS: '10' });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  const heights = (p: Page) =>
    p.locator('main .actions .button').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height));

  it('has a favicon, and the home page buttons are the same height, signed out and in', async () => {
    await page.goto(`${s.url}/`);
    const icon = await page.locator('link[rel=icon]').getAttribute('href');
    const res = await fetch(new URL(icon!, s.url));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(await res.text()).toMatch(/^<svg/);
    expect((await fetch(`${s.url}/favicon.ico`)).status).toBe(200);

    await page.locator('main .actions .button').first().waitFor();
    const out = await heights(page);
    expect(out).toHaveLength(2);
    expect(out[0]).toBe(out[1]);

    await page.goto(`${s.url}/sign-up`);
    await page.getByLabel('Email').fill(`polish-${Date.now()}@example.com`);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${s.url}/keys`);
    await page.goto(`${s.url}/`);
    await page.locator('main .actions .button').first().waitFor();
    const signedIn = await heights(page);
    expect(signedIn).toHaveLength(2);
    expect(signedIn[0]).toBe(signedIn[1]);
  }, 120_000);

  it('draws every label of the usage chart inside the chart, the last day included', async () => {
    await page.goto(`${s.url}/usage`);
    await page.locator('svg.chart').waitFor();
    const { width, boxes } = await page.locator('svg.chart').evaluate((svg: SVGSVGElement) => ({
      width: svg.viewBox.baseVal.width,
      boxes: [...svg.querySelectorAll('text')].map((t) => {
        const b = (t as SVGTextElement).getBBox();
        return { text: t.textContent, left: b.x, right: b.x + b.width };
      }),
    }));
    const today = new Date().toISOString().slice(5, 10);
    expect(boxes.map((b) => b.text)).toContain(today);
    for (const b of boxes) {
      expect(b.left, b.text!).toBeGreaterThanOrEqual(0);
      expect(b.right, b.text!).toBeLessThanOrEqual(width);
    }
  }, 120_000);
});
