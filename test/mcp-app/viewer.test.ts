// The MCP App end to end: the viewer resource served by /mcp, rendered by a test host in Chromium, calling our tools
// through the host; a click on a timestamp shows the frame at that moment.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelReply, seedVideo, spreadSegments } from '../llm/llm-fixtures.ts';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { secondShown } from '../support/make-video.ts';
import { startMediaYoutube } from '../support/media-youtube.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { launchBrowser, screenshotPath } from '../web/browser.ts';

/** A recorded video whose streams the media server serves (its picture shows the second, see make-video.ts). */
const VIDEO = 'Fjg5lYqvzUs';

describe.skipIf(!sharedAvailable)('MCP App: the Subtext viewer', () => {
  let yt: Awaited<ReturnType<typeof startMediaYoutube>>;
  let s: TestServer;
  let browser: Browser;
  let client: Client;
  let hostScript: string;
  let llm: FakeAnthropic;

  beforeAll(async () => {
    yt = await startMediaYoutube();
    llm = await startFakeAnthropic((req) => modelReply(req));
    s = await startTestServer({ YOUTUBE_BASE_URL: yt.origin, ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: llm.url });
    // A stored transcript (free to read); the frames come from the recorded video's real stream.
    await seedVideo(s.deps.sql, { videoId: VIDEO, duration: 23_000, segments: spreadSegments(600, 60) });
    const { key } = await s.newKey({ credits: 50 });
    client = new Client({ name: 'test-host', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', s.url), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
    const bundled = await build({
      entryPoints: ['test/mcp-app/host-page.ts'],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      logLevel: 'silent',
    });
    hostScript = bundled.outputFiles[0]!.text;
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await client?.close();
    await s?.close();
    await yt?.close();
    await llm?.close();
  });

  it('is linked from get_video_subtitles and search_articles, and served as an app resource', async () => {
    const { tools } = await client.listTools();
    const linked = tools.filter((t) => (t._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri);
    expect(linked.map((t) => t.name).sort()).toEqual(['get_video_subtitles', 'search_articles']);
    const uri = (linked[0]!._meta!.ui as { resourceUri: string }).resourceUri;
    expect(uri).toBe('ui://subtext/viewer.html');
    const { resources } = await client.listResources();
    expect(resources).toContainEqual(expect.objectContaining({ uri, mimeType: 'text/html;profile=mcp-app' }));
    const read = await client.readResource({ uri });
    const html = (read.contents[0] as { text: string }).text;
    expect(read.contents[0]!.mimeType).toBe('text/html;profile=mcp-app');
    expect(html).toMatch(/^<!doctype html>/);
    // Self-contained: no script or stylesheet from anywhere.
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+stylesheet/);
  });

  it('renders the transcript in a sandboxed iframe; a click on a timestamp shows that frame; translation; SRT', async () => {
    const args = { videoId: VIDEO };
    const result = await client.callTool({ name: 'get_video_subtitles', arguments: args });
    expect(result.isError).toBeFalsy();
    const uri = 'ui://subtext/viewer.html';
    const html = ((await client.readResource({ uri })).contents[0] as { text: string }).text;

    const page = await browser.newPage();
    const calls: string[] = [];
    await page.exposeFunction('hostCallTool', async (params: { name: string; arguments?: Record<string, unknown> }) => {
      calls.push(params.name);
      return client.callTool(params);
    });
    await page.setContent(`<!doctype html><body><script type="module">${hostScript}</script></body>`);
    await page.waitForFunction(() => typeof window.showApp === 'function');
    await page.evaluate(([h, a, r]) => window.showApp(h as string, a as never, r), [html, args, result] as const);

    const view = page.frameLocator('iframe');
    await expect.poll(() => view.locator('#segments li').count(), { timeout: 10_000 }).toBe(60);
    expect(await view.locator('#title').textContent()).toContain(VIDEO);
    // The 13th segment starts at 120 s.
    await view.locator('button.at[data-t="120"]').click();
    await expect.poll(() => view.locator('#frame').getAttribute('data-t'), { timeout: 30_000 }).toBe('120');
    const src = (await view.locator('#frame').getAttribute('src'))!;
    expect(src).toMatch(/^data:image\/jpeg;base64,/);
    expect(await secondShown(Buffer.from(src.split(',')[1]!, 'base64'))).toBe(120);
    expect(calls).toEqual(['get_video_frame']);
    await page.screenshot({ path: screenshotPath('mcp-app-viewer') });

    await view.locator('#target').fill('fr');
    await view.locator('#translate').click();
    await expect
      .poll(
        async () =>
          (await view.locator('#segments .translation').count()) || (await view.locator('#status').textContent()),
        { timeout: 60_000 },
      )
      .toBe(60);
    expect(await view.locator('#segments li').nth(12).textContent()).toBe(
      '2:00line 12 about the topicFR line 12 about the topic',
    );
    expect(calls).toContain('translate_transcript');

    await view.locator('#srt').click();
    await expect.poll(() => page.evaluate(() => window.hostDownloads.length), { timeout: 10_000 }).toBe(1);
    const [file] = await page.evaluate(() => window.hostDownloads);
    expect(file!.name).toBe(`file:///${VIDEO}.en.srt`);
    expect(file!.text).toMatch(/^1\r?\n00:00:00,000 --> /);
    expect(file!.text.match(/-->/g)).toHaveLength(60);
    await page.close();
  }, 120_000);
});
