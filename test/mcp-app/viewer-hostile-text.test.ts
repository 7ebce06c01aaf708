// Review (MCP App viewer): transcript text, article titles and summaries come from videos' uploaders. Rendered by
// the viewer in a sandboxed iframe, markup in them must stay text: no element made, no script run.
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { viewerHtml } from '../../src/bridges/mcp/app-resource.ts';
import { launchBrowser } from '../web/browser.ts';

const HOSTILE =
  "<img src=x onerror=\"parent.postMessage('pwned','*')\"><script>parent.postMessage('pwned','*')</script>";

describe('viewer with hostile text', () => {
  let browser: Browser;
  let hostScript: string;
  let html: string;

  beforeAll(async () => {
    const bundled = await build({
      entryPoints: ['test/mcp-app/host-page.ts'],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      logLevel: 'silent',
    });
    hostScript = bundled.outputFiles[0]!.text;
    html = await viewerHtml();
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => browser?.close());

  async function render(structuredContent: Record<string, unknown>) {
    const page = await browser.newPage();
    await page.exposeFunction('hostCallTool', async () => ({ isError: true, content: [] }));
    await page.setContent(
      `<!doctype html><body><script>window.pwned = 0; addEventListener('message', (e) => { if (e.data === 'pwned') window.pwned++; });</script><script type="module">${hostScript}</script></body>`,
    );
    await page.waitForFunction(() => typeof window.showApp === 'function');
    await page.evaluate(([h, r]) => window.showApp(h as string, {}, r), [
      html,
      { content: [], structuredContent },
    ] as const);
    return { page, view: page.frameLocator('iframe') };
  }

  it('a transcript segment and a title stay text', async () => {
    const { page, view } = await render({
      videoId: 'dQw4w9WgXcQ',
      lang: `en${HOSTILE}`,
      source: HOSTILE,
      segments: [{ start: 0, end: 1, text: HOSTILE }],
      nextOffset: null,
    });
    await expect.poll(() => view.locator('#segments li').count(), { timeout: 10_000 }).toBe(1);
    expect(await view.locator('#segments .text').textContent()).toBe(HOSTILE);
    expect(await view.locator('#title').textContent()).toContain(HOSTILE);
    expect(await view.locator('#segments img, #segments script, #title *').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { pwned: number }).pwned)).toBe(0);
    await page.close();
  });

  it('an article title and summary in search results stay text', async () => {
    const { page, view } = await render({
      total: 1,
      results: [{ id: 'art_x', videoId: 'dQw4w9WgXcQ', title: HOSTILE, summary: HOSTILE }],
    });
    await expect.poll(() => view.locator('#hits li').count(), { timeout: 10_000 }).toBe(1);
    expect(await view.locator('#hits button.open').textContent()).toBe(HOSTILE);
    expect(await view.locator('#hits p').textContent()).toBe(HOSTILE);
    expect(await view.locator('#hits img, #hits script').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { pwned: number }).pwned)).toBe(0);
    await page.close();
  });
});
