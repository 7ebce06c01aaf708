// The website's transcript panel for a video without captions, in a real browser: it offers speech-to-text, shows
// the job's progress, and shows the timed transcript when the job ends, charged per started minute.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { speechPrice } from '../../src/domain/pricing/prices.ts';
import { startFakeWhisper, type FakeWhisper } from '../support/fake-whisper.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { audioAvailable } from '../support/speech-audio.ts';
import { SPEECH_VIDEOS, startSpeechYoutube, type SpeechYoutube } from '../support/speech-youtube.ts';
import { grantCredits } from '../support/stores.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { launchBrowser, screenshotPath } from './browser.ts';

describe.skipIf(!audioAvailable || !sharedAvailable)('speech-to-text on the website', () => {
  let yt: SpeechYoutube;
  let whisper: FakeWhisper;
  let s: TestServer;
  let browser: Browser;
  let page: Page;
  const email = `web-speech-${Date.now()}@example.com`;

  beforeAll(async () => {
    yt = await startSpeechYoutube();
    whisper = await startFakeWhisper();
    s = await startTestServer({
      YOUTUBE_BASE_URL: yt.origin,
      STT_ENGINE: 'openai-compatible',
      STT_BASE_URL: whisper.origin,
      STT_MODEL: 'whisper-test',
    });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await yt?.close();
    await whisper?.close();
  });

  it('transcribes a video without captions from the service page', { timeout: 120_000 }, async () => {
    await page.goto(`${s.url}/sign-up`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${s.url}/keys`);
    const [account] = await s.deps.sql<{ id: string }[]>`select id from accounts where email = ${email}`;
    await grantCredits(s.deps.sql, account!.id, 20);

    await page.getByRole('link', { name: 'Videos' }).click();
    await page.getByLabel('Video link or id').fill(SPEECH_VIDEOS.noCaptions);
    await page.getByRole('button', { name: 'Open video' }).click();
    await page.getByText('YouTube lists no subtitle tracks for this video').waitFor();
    expect(await page.getByLabel('Source').inputValue()).toBe('auto');
    expect(await page.locator('form.inline .cost').first().textContent()).toContain(
      `speech-to-text costs 1 credit per started minute of audio (${speechPrice(288)} credits for this video)`,
    );

    await page.getByRole('button', { name: 'Get transcript' }).click();
    await page.locator('ol.segments li').first().waitFor({ timeout: 60_000 });
    await page.screenshot({ path: screenshotPath('speech-transcript'), fullPage: true });
    expect(await page.locator('ol.segments li').count()).toBe(Math.ceil(yt.programme.seconds / 5));
    expect(await page.locator('ol.segments li').nth(1).textContent()).toContain('words 1 of the chunk');
    expect(await page.getByText('Transcript (speech-to-text, whisper-test)').count()).toBe(1);
    expect(await page.getByText(`Charged ${speechPrice(yt.programme.seconds)} credit`).count()).toBe(1);
  });
});
