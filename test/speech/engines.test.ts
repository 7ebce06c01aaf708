// The speech-to-text adapters on their own: the OpenAI-compatible engine against a loopback server that checks the
// multipart request, and the ffmpeg audio decoder's bounds and refusals.
import { readFileSync, statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_RATE } from '../../src/domain/speech/ports.ts';
import { createFfmpegAudioDecoder } from '../../src/infra/ffmpeg/decode-audio.ts';
import { createOpenAiEngine, languageCode } from '../../src/infra/speech/openai-engine.ts';
import { startFakeWhisper, type FakeWhisper } from '../support/fake-whisper.ts';
import { audioAvailable, speechProgramme } from '../support/speech-audio.ts';
import { startVideoServer, type VideoServer } from '../support/video-server.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { SPEECH_VIDEOS, startSpeechYoutube, type SpeechYoutube } from '../support/speech-youtube.ts';
import { createYoutubeSource } from '../../src/infra/youtube/create-youtube-source.ts';
import { needsSystemTool } from '../support/system-needs.ts';

needsSystemTool('ffmpeg');

let whisper: FakeWhisper;
beforeAll(async () => {
  whisper = await startFakeWhisper();
});
afterAll(() => whisper.close());

const pcmOf = (seconds: number) => Buffer.alloc(Math.round(seconds * SAMPLE_RATE) * 2);

describe('OpenAI-compatible engine', () => {
  it('posts multipart file, model, language, verbose_json and segment and word timestamps, and reads the segments', async () => {
    const engine = createOpenAiEngine({
      baseUrl: `${whisper.origin}/`,
      apiKey: 'sk-test-secret',
      model: 'Systran/faster-whisper-small',
      timeoutMs: 10_000,
    });
    const out = await engine.transcribe(pcmOf(12), { language: 'en-GB' });
    const seen = whisper.requests.at(-1)!;
    expect(seen.path).toBe('/v1/audio/transcriptions');
    expect(seen.authorization).toBe('Bearer sk-test-secret');
    expect(seen.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen.fields).toEqual({
      model: ['Systran/faster-whisper-small'],
      response_format: ['verbose_json'],
      'timestamp_granularities[]': ['segment', 'word'],
      language: ['en'],
    });
    expect(seen.file).toMatchObject({
      name: 'audio.wav',
      type: 'audio/wav',
      sampleRate: 16000,
      channels: 1,
      bitsPerSample: 16,
      seconds: 12,
    });
    // OpenAI names the language ("english"); we answer its code.
    expect(out).toEqual({
      language: 'en',
      segments: [
        { start: 0, end: 5, text: 'words 0 of the chunk' },
        { start: 5, end: 10, text: 'words 1 of the chunk' },
        { start: 10, end: 12, text: 'words 2 of the chunk' },
      ],
    });
  });

  it('without a language, sends none and takes the detected one; a base URL ending in /v1 is not doubled', async () => {
    const engine = createOpenAiEngine({ baseUrl: `${whisper.origin}/v1`, model: 'whisper-1', timeoutMs: 10_000 });
    whisper.answer = () => ({
      body: { text: 'bonjour', language: 'fr', duration: 2, segments: [{ start: 0.2, end: 1.5, text: ' bonjour ' }] },
    });
    const out = await engine.transcribe(pcmOf(2), {});
    expect(whisper.requests.at(-1)!.path).toBe('/v1/audio/transcriptions');
    expect(whisper.requests.at(-1)!.fields.language).toBeUndefined();
    expect(whisper.requests.at(-1)!.authorization).toBeUndefined();
    expect(out).toEqual({ language: 'fr', segments: [{ start: 0.2, end: 1.5, text: 'bonjour' }] });
  });

  it('failures are EXTRACTION_FAILED with the status, never the key nor the server text (logged instead)', async () => {
    const logged: unknown[] = [];
    const engine = createOpenAiEngine({
      baseUrl: whisper.origin,
      apiKey: 'sk-test-secret',
      model: 'whisper-1',
      timeoutMs: 10_000,
      log: { warn: (o: unknown) => void logged.push(o) } as never,
    });
    // OpenAI's own 401 text quotes a masked fragment of the key.
    whisper.answer = () => ({
      status: 401,
      body: { error: { message: 'Incorrect API key provided: sk-te*****cret.' } },
    });
    const failure = await engine.transcribe(pcmOf(1), {}).catch((err: unknown) => err);
    expect(failure).toMatchObject({
      code: 'EXTRACTION_FAILED',
      message: 'the speech-to-text server answered HTTP 401',
    });
    expect(logged).toEqual([{ status: 401, detail: expect.stringContaining('Incorrect API key') }]);
    whisper.answer = () => ({ body: { nonsense: true, segments: 'no' } });
    await expect(engine.transcribe(pcmOf(1), {})).rejects.toMatchObject({
      code: 'EXTRACTION_FAILED',
      message: expect.stringMatching(/verbose_json/),
    });
    const gone = createOpenAiEngine({ baseUrl: 'http://127.0.0.1:9', model: 'whisper-1', timeoutMs: 5_000 });
    await expect(gone.transcribe(pcmOf(1), {})).rejects.toMatchObject({
      code: 'EXTRACTION_FAILED',
      message: expect.stringMatching(/unreachable/),
    });
  });

  it('language names and codes', () => {
    expect(languageCode('english')).toBe('en');
    expect(languageCode('EN')).toBe('en');
    expect(languageCode('pt-BR')).toBe('pt');
    expect(languageCode('klingon')).toBeNull();
    expect(languageCode(null)).toBeNull();
  });
});

describe.skipIf(!audioAvailable)('ffmpeg audio decoder', () => {
  let media: VideoServer;
  let other: VideoServer;
  const ffmpegPath = 'ffmpeg';
  beforeAll(async () => {
    const { file } = speechProgramme();
    const size = statSync(file).size;
    media = await startVideoServer({
      '/audio.webm': { file, contentType: 'audio/webm' },
      // The first 8 KB at once, then nothing more on an open connection (a hostile or broken media server).
      '/trickle.webm': {
        handle: (req, res) => {
          res.writeHead(200, { 'content-type': 'audio/webm', 'content-length': size });
          if (req.method === 'HEAD') return res.end();
          res.write(readFileSync(file).subarray(0, 8192));
        },
      },
      '/to-other': { redirect: 'http://127.0.0.1:1/x' },
    });
    other = await startVideoServer({ '/audio.webm': { file, contentType: 'audio/webm' } });
  });
  afterAll(async () => {
    await media?.close();
    await other?.close();
  });
  const decoder = () => createFfmpegAudioDecoder({ ffmpegPath, extraOrigins: [media.origin] });

  it('decodes to 16 kHz mono with the loudness of every 20 ms frame, and reads any span back', async () => {
    const p = speechProgramme();
    const audio = await decoder().decode({ url: media.url('/audio.webm') }, { maxSeconds: 600, maxBytes: 10_000_000 });
    try {
      expect(audio.seconds).toBeCloseTo(p.seconds, 1);
      expect(audio.frameRms.length).toBe(Math.ceil(audio.seconds / 0.02));
      // Loud inside a sentence, near silent in the pause after it.
      const at = (t: number) => audio.frameRms[Math.floor(t / 0.02)]!;
      const speech = Math.max(...[1, 2, 3, 4, 5].map(at));
      expect(speech).toBeGreaterThan(0.02);
      expect(at(p.parts[0]!.end + 1.5)).toBeLessThan(0.005);
      expect((await audio.read(1, 3)).length).toBe(2 * SAMPLE_RATE * 2);
    } finally {
      await audio.dispose();
    }
  }, 90_000); // decoding the whole programme with real ffmpeg: slow on a loaded 2-core machine

  it('bounds: decoding stops one second past maxSeconds, counted from the PCM written', async () => {
    const audio = await decoder().decode({ url: media.url('/audio.webm') }, { maxSeconds: 10, maxBytes: 10_000_000 });
    try {
      expect(audio.seconds).toBeGreaterThan(10);
      expect(audio.seconds).toBeLessThanOrEqual(11.05);
    } finally {
      await audio.dispose();
    }
  });

  it('bounds: a server that sends a little and then holds the connection is cut off at the wall-time bound', async () => {
    const slow = createFfmpegAudioDecoder({
      ffmpegPath,
      extraOrigins: [media.origin],
      stallTimeoutMs: 120_000,
      timeoutMs: 1500,
    });
    const started = Date.now();
    await expect(
      slow.decode({ url: media.url('/trickle.webm') }, { maxSeconds: 600, maxBytes: 10_000_000 }),
    ).rejects.toMatchObject({ code: 'EXTRACTION_FAILED', message: expect.stringMatching(/took longer than 2 s/) });
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 30_000);

  it('bounds: larger than maxBytes is MEDIA_TOO_LARGE', async () => {
    await expect(
      decoder().decode({ url: media.url('/audio.webm') }, { maxSeconds: 600, maxBytes: 2048 }),
    ).rejects.toMatchObject({ code: 'MEDIA_TOO_LARGE' });
    await expect(
      decoder().decode({ url: media.url('/audio.webm'), bytes: 10_000_000 }, { maxSeconds: 600, maxBytes: 1_000_000 }),
    ).rejects.toMatchObject({ code: 'MEDIA_TOO_LARGE' });
  });

  it('refuses hosts outside the allowlist and redirects to them, before ffmpeg opens anything', async () => {
    const before = other.requests.length;
    await expect(
      decoder().decode({ url: other.url('/audio.webm') }, { maxSeconds: 600, maxBytes: 10_000_000 }),
    ).rejects.toMatchObject({ code: 'EXTRACTION_FAILED', message: expect.stringMatching(/audio source refused/) });
    await expect(
      decoder().decode({ url: media.url('/to-other') }, { maxSeconds: 600, maxBytes: 10_000_000 }),
    ).rejects.toMatchObject({ code: 'EXTRACTION_FAILED', message: expect.stringMatching(/audio source refused/) });
    await expect(
      decoder().decode({ url: 'file:///etc/passwd' }, { maxSeconds: 600, maxBytes: 10_000_000 }),
    ).rejects.toMatchObject({ code: 'EXTRACTION_FAILED' });
    expect(other.requests.length).toBe(before);
  });

  it('not audio: EXTRACTION_FAILED, not a crash', async () => {
    const text = await startVideoServer({ '/page': { file: '/etc/hostname', contentType: 'text/html' } });
    try {
      const d = createFfmpegAudioDecoder({ ffmpegPath, extraOrigins: [text.origin] });
      await expect(
        d.decode({ url: text.url('/page') }, { maxSeconds: 600, maxBytes: 10_000_000 }),
      ).rejects.toMatchObject({ code: 'EXTRACTION_FAILED' });
    } finally {
      await text.close();
    }
  });
});

describe.skipIf(!audioAvailable || !sharedAvailable)('YouTube audio through the client chain', () => {
  let yt: SpeechYoutube;
  beforeAll(async () => {
    yt = await startSpeechYoutube();
  });
  afterAll(() => yt?.close());

  it('picks the smallest adequate audio-only format of a video without captions, and ffmpeg decodes all of it', async () => {
    const source = createYoutubeSource({ baseUrl: yt.origin, timeoutMs: 10_000 });
    const audio = await source.getAudioSource!(SPEECH_VIDEOS.noCaptions);
    const url = new URL(audio.url);
    expect(url.origin).toBe(yt.origin);
    expect(url.pathname).toBe('/videoplayback');
    // Average bitrates: 139 (HE-AAC) 48.8, 249 (Opus) 53.4, 140 129, 250 70, 251 136 kbit/s: 139 is the smallest
    // at or above the 48 kbit/s that speech needs. (The loopback answers the same Opus file for every format.)
    expect(url.searchParams.get('itag')).toBe('139');
    expect(audio).toMatchObject({ kind: 'file', bytes: expect.any(Number) });
    expect(audio.seconds).toBeCloseTo(288, -1);
    const decoded = await createFfmpegAudioDecoder({ ffmpegPath: 'ffmpeg', extraOrigins: [yt.origin] }).decode(audio, {
      maxSeconds: 600,
      maxBytes: 50_000_000,
    });
    try {
      expect(decoded.seconds).toBeCloseTo(yt.programme.seconds, 1);
    } finally {
      await decoded.dispose();
    }
    expect(yt.audioDownloads()).toBe(1);
  });
});
