// The embedded default, end to end on real speech: a video without captions, its audio stream (five LibriVox
// sentences with pauses and a 10-second silence) served by the loopback YouTube, transcribed by Debian's
// pocketsphinx through POST /subtitles. The words are checked against the reference transcripts loosely (the local
// engine is weak: about 40 % WER, see BENCHMARKS.md); the times are checked against where each sentence is, and the
// word timings pocketsphinx reports come back with words=true on REST, tRPC and MCP (and as VTT word cues).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { speechPrice } from '../../src/domain/pricing/prices.ts';
import { mcpClient, rest, trpcClient } from '../support/clients.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { audioAvailable, normalizeWords, wordErrorRate } from '../support/speech-audio.ts';
import { SPEECH_VIDEOS, startSpeechYoutube, type SpeechYoutube } from '../support/speech-youtube.ts';
import { needsSystemTool } from '../support/system-needs.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const run = audioAvailable && sharedAvailable;
if (process.env.CI && !run) throw new Error('the shared YouTube and audio fixtures are needed in CI');
needsSystemTool('pocketsphinx');

let yt: SpeechYoutube;
let s: TestServer;
beforeAll(async () => {
  if (!run) return;
  yt = await startSpeechYoutube();
  // Polled every 250 ms for minutes: above the default per-key limit of 60 a minute.
  s = await startTestServer({
    YOUTUBE_BASE_URL: yt.origin,
    STT_ENGINE: 'local',
    RATE_LIMIT_PER_MINUTE: '1000',
    PATH: process.env.PATH ?? '',
  });
}, 120_000);
afterAll(async () => {
  await s?.close();
  await yt?.close();
});

describe.skipIf(!run)('the local engine through POST /subtitles', () => {
  it('transcribes real speech into segments on the video’s clock, cut in the long pause, charged per started minute', {
    timeout: 300_000,
  }, async () => {
    const { key } = await s.newKey({ credits: 20 });
    const r = await rest(s.url, 'POST', '/subtitles', { key, body: { videoId: SPEECH_VIDEOS.noCaptions } });
    expect(r.status).toBe(202);
    expect(r.json).toMatchObject({ engine: 'local', model: 'pocketsphinx en-us' });
    let job;
    for (const until = Date.now() + 280_000; ; await new Promise((res) => setTimeout(res, 250))) {
      job = (await rest(s.url, 'GET', `/jobs/${r.json.job.id}`, { key })).json;
      if (job.status === 'succeeded' || job.status === 'failed') break;
      if (Date.now() > until) throw new Error('the local engine did not finish');
    }
    expect(job.error).toBeUndefined();
    const t = job.result.transcript;
    expect(t).toMatchObject({
      source: 'speech-to-text',
      engine: 'local',
      lang: 'en',
      creditsCharged: speechPrice(yt.programme.seconds),
    });
    const words = t.segments.map((x: { text: string }) => x.text).join(' ');
    expect(wordErrorRate(yt.programme.reference, words)).toBeLessThan(0.75);
    // Every segment lies within the programme, and each sentence (the last two come after the 30-second cut) has
    // words recognised inside its own time span.
    for (const seg of t.segments) {
      expect(seg.start).toBeGreaterThanOrEqual(0);
      expect(seg.end).toBeLessThanOrEqual(yt.programme.seconds + 0.5);
    }
    for (const part of yt.programme.parts) {
      const inside = t.segments.filter(
        (x: { start: number; end: number }) => x.start >= part.start - 0.5 && x.end <= part.end + 0.5,
      );
      const heard = normalizeWords(inside.map((x: { text: string }) => x.text).join(' ')).split(' ');
      const said = new Set(normalizeWords(part.clip.reference).split(' '));
      expect(heard.filter((w) => said.has(w)).length, `words of ${part.clip.name} heard in its span`).toBeGreaterThan(
        0,
      );
    }

    // Word timings: pocketsphinx times each word. Asked for on the stored transcript (free), on every surface.
    const worded = await rest(s.url, 'POST', '/subtitles', {
      key,
      body: { videoId: SPEECH_VIDEOS.noCaptions, words: true },
    });
    expect(worded.json).toMatchObject({ creditsCharged: 0, wordTiming: { available: true } });
    expect(worded.json.segments.map(({ words: _w, ...x }: { words: unknown }) => x)).toEqual(t.segments);
    for (const seg of worded.json.segments as Seg[]) {
      expect(seg.words!.map((w) => w.text).join(' ')).toBe(seg.text);
      let last = seg.start;
      for (const w of seg.words!) {
        expect(w.start).toBeGreaterThanOrEqual(last);
        expect(w.end).toBeGreaterThanOrEqual(w.start);
        expect(w.end).toBeLessThanOrEqual(seg.end);
        expect(w.confidence).toBeGreaterThanOrEqual(0);
        expect(w.confidence).toBeLessThanOrEqual(1);
        last = w.start;
      }
    }
    const viaTrpc = await trpcClient(s.url, key).subtitles.get.mutate({
      videoId: SPEECH_VIDEOS.noCaptions,
      words: true,
    });
    expect(viaTrpc.status === 'succeeded' && viaTrpc.segments).toEqual(worded.json.segments);
    const client = await mcpClient(s.url, key);
    const tool = (await client.callTool({
      name: 'get_video_subtitles',
      arguments: { videoId: SPEECH_VIDEOS.noCaptions, words: true, format: 'vtt' },
    })) as unknown as { structuredContent: { segments: Seg[]; content: string } };
    await client.close();
    expect(tool.structuredContent.segments).toEqual(worded.json.segments);
    const second = (worded.json.segments as Seg[]).find((x) => x.words!.length > 1 && x.words![1]!.start > x.start)!;
    expect(tool.structuredContent.content).toContain(`<c> ${second.words![1]!.text}</c>`);
    expect(tool.structuredContent.content).toMatch(/\d\d:\d\d:\d\d\.\d{3}><c> \S+<\/c>/);
  });
});

type Seg = {
  start: number;
  end: number;
  text: string;
  words: { start: number; end: number; text: string; confidence: number }[] | null;
};
