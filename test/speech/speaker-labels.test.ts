// Speaker labels from a diarizing engine: with STT_DIARIZE the service asks the loopback OpenAI-compatible server for
// response_format=diarized_json, and the server answers in the shape OpenAI documents for gpt-4o-transcribe-diarize
// ({text, segments: [{type: "transcript.text.segment", id, start, end, text, speaker: "A" | "B"}], usage}). Segments
// carry `speaker` on REST, tRPC and MCP; text and VTT show it. Without the setting nothing asks for speakers and the
// segments have no such field.
import { afterEach, describe, expect, it } from 'vitest';
import { mcpClient, rest, trpcClient } from '../support/clients.ts';
import type { FakeWhisper } from '../support/fake-whisper.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { audioAvailable } from '../support/speech-audio.ts';
import { SPEECH_VIDEOS, startSpeechStack, type SpeechStack } from '../support/speech-youtube.ts';
import type { TestServer } from '../support/test-server.ts';
import { pollUntil } from '../transcripts/recorded-youtube.ts';

const run = audioAvailable && sharedAvailable;
if (process.env.CI && !run) throw new Error('the shared YouTube and audio fixtures are needed in CI');

let stack: SpeechStack | undefined;
afterEach(() => stack?.close());
const { noCaptions } = SPEECH_VIDEOS;

/** OpenAI's documented diarized_json: one segment per 5 s of the chunk, speakers A and B taking turns two by two. */
function diarizedJson(seconds: number) {
  const segments = Array.from({ length: Math.max(1, Math.floor(seconds / 5)) }, (_, i) => ({
    type: 'transcript.text.segment',
    id: `seg_${i}`,
    start: i * 5,
    end: i * 5 + 5,
    text: ` turn ${i} of the chunk`,
    speaker: Math.floor(i / 2) % 2 ? 'B' : 'A',
  }));
  return {
    task: 'transcribe',
    duration: seconds,
    text: segments.map((s) => s.text).join(''),
    segments,
    usage: { type: 'duration', seconds: Math.ceil(seconds) },
  };
}

async function transcribed(s: TestServer, key: string) {
  const r = await rest(s.url, 'POST', '/subtitles', { key, body: { videoId: noCaptions } });
  expect(r.status, r.text).toBe(202);
  let status = '';
  await pollUntil(
    async () => {
      status = (await rest(s.url, 'GET', `/jobs/${r.json.job.id}`, { key })).json.status;
      return status === 'succeeded' || status === 'failed';
    },
    'the speech job ended',
    60_000,
  );
  expect(status).toBe('succeeded');
}

describe.skipIf(!run)('speaker labels from a diarizing engine', { timeout: 120_000 }, () => {
  it('asks for diarized_json; segments carry speaker on every surface; text and VTT show who speaks', async () => {
    stack = await startSpeechStack({ env: { STT_DIARIZE: 'true', STT_MODEL: 'gpt-4o-transcribe-diarize' } });
    const { s, whisper } = stack as { s: TestServer; whisper: FakeWhisper };
    whisper.answer = (r) => ({ body: diarizedJson(r.file?.seconds ?? 0) });
    const { key } = await s.newKey({ credits: 20 });
    const before = whisper.requests.length;
    await transcribed(s, key);
    expect(whisper.requests[before]!.fields).toMatchObject({
      model: ['gpt-4o-transcribe-diarize'],
      response_format: ['diarized_json'],
      chunking_strategy: ['auto'],
    });
    expect(whisper.requests[before]!.fields['timestamp_granularities[]']).toBeUndefined();

    const r = await rest(s.url, 'POST', '/subtitles', { key, body: { videoId: noCaptions } });
    expect(r.json.segments.slice(0, 4)).toEqual([
      { start: 0, end: 5, text: 'turn 0 of the chunk', speaker: 'Speaker 1' },
      { start: 5, end: 10, text: 'turn 1 of the chunk', speaker: 'Speaker 1' },
      { start: 10, end: 15, text: 'turn 2 of the chunk', speaker: 'Speaker 2' },
      { start: 15, end: 20, text: 'turn 3 of the chunk', speaker: 'Speaker 2' },
    ]);
    const viaTrpc = await trpcClient(s.url, key).subtitles.get.mutate({ videoId: noCaptions });
    expect(viaTrpc.status === 'succeeded' && viaTrpc.segments[2]).toEqual(r.json.segments[2]);
    const client = await mcpClient(s.url, key);
    const tool = (await client.callTool({
      name: 'get_video_subtitles',
      arguments: { videoId: noCaptions },
    })) as unknown as {
      structuredContent: { segments: unknown[] };
    };
    await client.close();
    expect(tool.structuredContent.segments[2]).toEqual(r.json.segments[2]);

    const text = await rest(s.url, 'POST', '/subtitles', { key, body: { videoId: noCaptions, format: 'text' } });
    expect(text.json.content).toMatch(
      /^Speaker 1: turn 0 of the chunk\nturn 1 of the chunk\nSpeaker 2: turn 2 of the chunk\nturn 3 of the chunk\nSpeaker 1: /,
    );
    const vtt = await rest(s.url, 'POST', '/subtitles', { key, body: { videoId: noCaptions, format: 'vtt' } });
    expect(vtt.json.content).toContain('00:00:10.000 --> 00:00:15.000\n<v Speaker 2>turn 2 of the chunk\n');
    // With words=true the answer still carries the speakers (diarized_json has no word timings, so words are null).
    const worded = await rest(s.url, 'POST', '/subtitles', { key, body: { videoId: noCaptions, words: true } });
    expect(worded.json.segments[2]).toMatchObject({ speaker: 'Speaker 2', words: null });
  });

  it('an OpenAI-compatible server that adds words to diarized_json segments: each word carries its segment’s speaker', async () => {
    stack = await startSpeechStack({ env: { STT_DIARIZE: 'true', STT_MODEL: 'gpt-4o-transcribe-diarize' } });
    const { s, whisper } = stack as { s: TestServer; whisper: FakeWhisper };
    // The documented shape, each segment also holding its words as faster-whisper servers send them.
    whisper.answer = (r) => {
      const body = diarizedJson(r.file?.seconds ?? 0);
      const segments = body.segments.map((x) => ({
        ...x,
        words: [
          { word: ' turn', start: x.start, end: x.start + 2, probability: 0.9 },
          { word: ' of', start: x.start + 2, end: x.end, probability: 0.8 },
        ],
      }));
      return { body: { ...body, segments } };
    };
    const { key } = await s.newKey({ credits: 20 });
    await transcribed(s, key);
    const worded = await rest(s.url, 'POST', '/subtitles', { key, body: { videoId: noCaptions, words: true } });
    expect(worded.json.segments[2]).toMatchObject({
      speaker: 'Speaker 2',
      words: [
        { start: 10, end: 12, text: 'turn', speaker: 'Speaker 2' },
        { start: 12, end: 15, text: 'of', speaker: 'Speaker 2' },
      ],
    });
    expect(worded.json.segments[0].words.every((w: { speaker?: string }) => w.speaker === 'Speaker 1')).toBe(true);
  });

  it('without STT_DIARIZE nothing asks for speakers and segments have no speaker field', async () => {
    stack = await startSpeechStack();
    const { s, whisper } = stack as { s: TestServer; whisper: FakeWhisper };
    const { key } = await s.newKey({ credits: 20 });
    const before = whisper.requests.length;
    await transcribed(s, key);
    expect(whisper.requests[before]!.fields.response_format).toEqual(['verbose_json']);
    const r = await rest(s.url, 'POST', '/subtitles', { key, body: { videoId: noCaptions } });
    expect(r.json.segments.length).toBeGreaterThan(0);
    expect(r.json.segments.some((x: object) => 'speaker' in x)).toBe(false);
  });
});
