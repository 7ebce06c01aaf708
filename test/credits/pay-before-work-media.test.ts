// Pay before work for the media operations: frames (ffmpeg reading YouTube's stream), speech-to-text (the audio
// decoded and sent to the engine) and caption extraction (YouTube's caption download). Credits for one piece of work, asked for six at once: one piece is done, the rest
// are refused 402 before ffmpeg, YouTube's stream or the engine is reached (see pay-before-work.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FrameGrabber } from '../../src/domain/ports.ts';
import { speechPrice } from '../../src/domain/pricing/prices.ts';
import { sweepStaleHolds } from '../../src/domain/credits/holds.ts';
import { rest } from '../support/clients.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { startMediaYoutube } from '../support/media-youtube.ts';
import { audioAvailable } from '../support/speech-audio.ts';
import { resetSpeechStack, SPEECH_VIDEOS, type SpeechStack, startSpeechStack } from '../support/speech-youtube.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { isCaptions } from '../support/loopback-youtube.ts';
import { ID, startRecordedHarness, type Harness } from '../transcripts/recorded-youtube.ts';

const LONG = 'Fjg5lYqvzUs';

const tally = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((t, x) => {
    t[x] = (t[x] ?? 0) + 1;
    return t;
  }, {});

describe.skipIf(!sharedAvailable)('frames are paid before ffmpeg runs', { timeout: 120_000 }, () => {
  let yt: Awaited<ReturnType<typeof startMediaYoutube>>;
  let s: TestServer;
  let captures = 0;
  beforeAll(async () => {
    yt = await startMediaYoutube();
    s = await startTestServer({ YOUTUBE_BASE_URL: yt.origin, FRAME_CONCURRENCY: '2' });
    // Every capture the workers start, counted where ffmpeg is called (the deps object is the workers' own).
    const real: FrameGrabber = s.deps.frames;
    s.deps.frames = {
      ...real,
      capture: (...args) => {
        captures++;
        return real.capture(...args);
      },
    };
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    await yt?.close();
  });

  it('6 requests for different frames at once with 1 credit: one frame, 5 × 402, one capture', async () => {
    const { key } = await s.newKey({ credits: 1, rateLimit: 100_000 });
    await rest(s.url, 'GET', `/videos/${LONG}`, { key }); // metadata stored: every request goes to its frame
    const before = captures;
    const answers = await Promise.all(
      [11, 12, 13, 14, 15, 16].map((t) =>
        rest(s.url, 'POST', '/frames', { key, body: { videoId: LONG, timestamps: [t], width: 160 } }),
      ),
    );
    expect(tally(answers.map((a) => a.status))).toEqual({ 200: 1, 402: 5 });
    expect(captures - before).toBe(1);
    const credits = (await rest(s.url, 'GET', '/credits', { key })).json;
    expect(credits).toMatchObject({ balance: 0, held: 0, available: 0 });
  });

  it('a hold left by a request that died before its job ran is released by the sweep', async () => {
    const { key, accountId } = await s.newKey({ credits: 1 });
    // A hold as captureFrames takes it, for a job that never reached the queue (its process died in between).
    await s.deps.ledger.hold(
      {
        accountId,
        amount: 1,
        operation: 'frame',
        videoId: LONG,
        requestId: 'req_died',
        job: { queue: 'frames', key: `frame:${LONG}:99000:160` },
      },
      0,
      new Date(),
    );
    expect((await rest(s.url, 'GET', '/credits', { key })).json).toMatchObject({ held: 1, available: 0 });
    // Past the sweep's grace; the workers' own sweep may release it first, or this pass does.
    await s.deps.sql`update credit_holds set created_at = now() - interval '1 minute' where account_id = ${accountId}`;
    await sweepStaleHolds(s.deps);
    const [hold] = await s.deps.sql`select status from credit_holds where account_id = ${accountId}`;
    expect(hold).toEqual({ status: 'released' });
    expect((await rest(s.url, 'GET', '/credits', { key })).json).toMatchObject({ balance: 1, held: 0, available: 1 });
  });
});

describe.skipIf(!(audioAvailable && sharedAvailable))(
  'speech-to-text is paid before the engine is called',
  { timeout: 120_000 },
  () => {
    let stack: SpeechStack;
    beforeAll(async () => {
      stack = await startSpeechStack({ env: { STT_CONCURRENCY: '2' } });
    }, 120_000);
    afterAll(() => stack?.close());

    it('6 languages at once with credits for one: one job, 5 × 402, the engine called for that job only', async () => {
      await resetSpeechStack(stack);
      const { s, whisper } = stack;
      const { key } = await s.newKey({ credits: speechPrice(288), rateLimit: 100_000 });
      // Metadata stored first: every request goes straight to its speech job.
      await rest(s.url, 'GET', `/videos/${SPEECH_VIDEOS.noCaptions}`, { key });
      const before = whisper.requests.length;
      const langs = ['en', 'en-GB', 'en-US', 'en-AU', 'en-CA', 'en-IE'];
      const answers = await Promise.all(
        langs.map((lang) =>
          rest(s.url, 'POST', '/subtitles', {
            key,
            body: { videoId: SPEECH_VIDEOS.noCaptions, lang, mode: 'generate' },
          }),
        ),
      );
      expect(tally(answers.map((a) => a.status))).toEqual({ 202: 1, 402: 5 });
      const job = answers.find((a) => a.status === 202)!.json.job.id;
      for (;;) {
        const r = await rest(s.url, 'GET', `/jobs/${job}`, { key });
        if (r.json.status === 'succeeded' || r.json.status === 'failed') break;
        await new Promise((res) => setTimeout(res, 100));
      }
      const sent = whisper.requests.slice(before);
      expect(sent.length).toBeGreaterThan(0);
      // Every chunk the engine got was the one paid job's (one language asked).
      expect(new Set(sent.map((r) => JSON.stringify(r.fields.language ?? null))).size).toBe(1);
    });
  },
);

describe.skipIf(!sharedAvailable)('caption extraction is paid before YouTube is asked', { timeout: 120_000 }, () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startRecordedHarness();
  }, 120_000);
  afterAll(() => h?.close());

  it('6 videos’ subtitles at once with credits for one: one transcript, 5 × 402, one caption download', async () => {
    const videos = [ID.captions9, ID.manualAndAsr, ID.manualAndAsrVisionos, ID.tracks19, ID.tracks36, ID.web15];
    // Metadata stored first (by other accounts, a few lookups each): every request goes straight to its extraction.
    for (const [i, videoId] of videos.entries()) {
      const { key } = await h.s.newKey({ credits: 10 });
      expect((await rest(h.s.url, 'GET', `/videos/${videoId}`, { key })).status, String(i)).toBe(200);
    }
    const downloads = () => videos.reduce((n, v) => n + h.yt.count(isCaptions(v)), 0);
    const before = downloads();
    const { key } = await h.s.newKey({ credits: 2, rateLimit: 100_000 });
    const answers = await Promise.all(
      videos.map((videoId) => rest(h.s.url, 'POST', '/subtitles', { key, body: { videoId, lang: 'en' } })),
    );
    expect(tally(answers.map((a) => a.status))).toEqual({ 200: 1, 402: 5 });
    expect(downloads() - before).toBe(1);
    expect((await rest(h.s.url, 'GET', '/credits', { key })).json).toMatchObject({ balance: 0, held: 0, available: 0 });
  });
});
