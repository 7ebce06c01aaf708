// Word timings from the Whisper-compatible engine (timestamp_granularities[]=word with verbose_json): a video without
// captions transcribed by the loopback OpenAI-compatible server, then asked for with `words=true` through REST, tRPC,
// MCP and the VTT export. Both shapes servers answer are read: OpenAI's top-level `words`, faster-whisper's per segment.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mcpClient, rest, trpcClient } from '../support/clients.ts';
import { verboseJsonWithWords, type FakeWhisper } from '../support/fake-whisper.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { audioAvailable } from '../support/speech-audio.ts';
import { SPEECH_VIDEOS, startSpeechStack, type SpeechStack } from '../support/speech-youtube.ts';
import type { TestServer } from '../support/test-server.ts';

const run = audioAvailable && sharedAvailable;
if (process.env.CI && !run) throw new Error('the shared YouTube and audio fixtures are needed in CI');

// A service per case: each transcribes the same video afresh with another engine answer, and a stored speech-to-text
// transcript is never replaced (nor is the service's in-memory copy of it).
let stack: SpeechStack | undefined;
let whisper: FakeWhisper;
let s: TestServer;
beforeEach(async () => {
  if (!run) return;
  stack = await startSpeechStack();
  ({ whisper, s } = stack);
}, 120_000);
afterEach(() => stack?.close());

const { noCaptions } = SPEECH_VIDEOS;

type Word = { start: number; end: number; text: string; confidence?: number };
type Seg = { start: number; end: number; text: string; words?: Word[] | null };

/** Transcribes the video and waits for its job; the transcript is then stored. */
async function transcribed(key: string) {
  const r = await rest(s.url, 'POST', '/subtitles', { key, body: { videoId: noCaptions, words: true } });
  expect(r.status, r.text).toBe(202);
  for (const until = Date.now() + 60_000; ; await new Promise((res) => setTimeout(res, 100))) {
    const job = (await rest(s.url, 'GET', `/jobs/${r.json.job.id}`, { key })).json;
    if (job.status === 'succeeded') return job;
    if (job.status === 'failed' || Date.now() > until)
      throw new Error(`job ${job.status}: ${JSON.stringify(job.error)}`);
  }
}

function expectWordsInside(segments: Seg[]) {
  expect(segments.length).toBeGreaterThan(3);
  for (const x of segments) {
    expect(x.words?.map((w) => w.text).join(' '), `${x.start}`).toBe(x.text);
    let last = x.start;
    for (const w of x.words!) {
      expect(w.start).toBeGreaterThanOrEqual(last);
      expect(w.end).toBeGreaterThanOrEqual(w.start);
      expect(w.end).toBeLessThanOrEqual(x.end);
      last = w.start;
    }
  }
}

describe.skipIf(!run)('word timings from a Whisper-compatible server', { timeout: 120_000 }, () => {
  it('asks for word timestamps; REST, tRPC and MCP answer each segment’s words; VTT has word cues', async () => {
    whisper.answer = (r) => ({ body: verboseJsonWithWords(r.file?.seconds ?? 0, 'openai') });
    const { key } = await s.newKey({ credits: 20 });
    const before = whisper.requests.length;
    await transcribed(key);
    expect(whisper.requests[before]!.fields['timestamp_granularities[]']).toEqual(['segment', 'word']);

    const r = await rest(s.url, 'POST', '/subtitles', { key, body: { videoId: noCaptions, words: true } });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({
      source: 'speech-to-text',
      cached: true,
      creditsCharged: 0,
      wordTiming: { available: true, note: expect.stringMatching(/speech-to-text engine/) },
    });
    expectWordsInside(r.json.segments);
    expect(r.json.segments[1].words).toEqual([
      { start: 5, end: 5.8, text: 'words' },
      { start: 6, end: 6.8, text: '1' },
      { start: 7, end: 7.8, text: 'of' },
      { start: 8, end: 8.8, text: 'the' },
      { start: 9, end: 9.8, text: 'chunk' },
    ]);
    // The stored segments are unchanged for everyone else.
    const plain = await rest(s.url, 'POST', '/subtitles', { key, body: { videoId: noCaptions } });
    expect(plain.json.segments[1]).toEqual({ start: 5, end: 10, text: 'words 1 of the chunk' });

    const viaTrpc = await trpcClient(s.url, key).subtitles.get.mutate({ videoId: noCaptions, words: true });
    expect(viaTrpc.status === 'succeeded' && viaTrpc.segments).toEqual(r.json.segments);
    const client = await mcpClient(s.url, key);
    const tool = (await client.callTool({
      name: 'get_video_subtitles',
      arguments: { videoId: noCaptions, words: true, limit: 5000 },
    })) as unknown as { structuredContent: { segments: Seg[] } };
    await client.close();
    expect(tool.structuredContent.segments).toEqual(r.json.segments);

    const vtt = await rest(s.url, 'POST', '/subtitles', {
      key,
      body: { videoId: noCaptions, words: true, format: 'vtt' },
    });
    expect(vtt.json.content).toContain(
      '00:00:05.000 --> 00:00:10.000\nwords<00:00:06.000><c> 1</c><00:00:07.000><c> of</c><00:00:08.000><c> the</c><00:00:09.000><c> chunk</c>\n',
    );
  });

  it('reads words given per segment with a probability (faster-whisper servers) as confidences', async () => {
    whisper.answer = (r) => ({ body: verboseJsonWithWords(r.file?.seconds ?? 0, 'segments') });
    const { key } = await s.newKey({ credits: 20 });
    await transcribed(key);
    const r = await rest(s.url, 'POST', '/subtitles', { key, body: { videoId: noCaptions, words: true } });
    expectWordsInside(r.json.segments);
    expect(r.json.segments[0].words.map((w: Word) => w.confidence)).toEqual([0.5, 0.55, 0.6, 0.65, 0.7]);
  });

  it('a server that ignores the word granularity: the transcript is stored without words, and the answer says so', async () => {
    const { key } = await s.newKey({ credits: 20 });
    await transcribed(key);
    const r = await rest(s.url, 'POST', '/subtitles', { key, body: { videoId: noCaptions, words: true } });
    expect(r.json.wordTiming).toEqual({ available: false, note: expect.stringMatching(/without word timing/) });
    expect(r.json.segments.every((x: Seg) => x.words === null)).toBe(true);
  });
});
