// Any OpenAI-compatible transcription server: POST {base}/v1/audio/transcriptions, multipart, verbose_json with
// segment and word timestamps. OpenAI, Groq, speaches (faster-whisper-server) and whisper.cpp's server all answer it.
// Words come as a top-level `words` list (OpenAI) or inside each segment (faster-whisper); a server that ignores the
// word granularity sends neither, and the segments are stored without word timing. With STT_DIARIZE the request
// asks for diarized_json instead (OpenAI's gpt-4o-transcribe-diarize): segments carry a speaker, and no words.
import { z } from 'zod';
import { ServiceError } from '../../domain/errors.ts';
import { SAMPLE_RATE, type EngineResult, type SpeechEngine } from '../../domain/speech/ports.ts';
import type { Word } from '../../domain/transcripts/words.ts';
import type { Logger } from '../log/logger.ts';
import { wavFile } from './wav.ts';

const WhisperWord = z.object({
  word: z.string(),
  start: z.number(),
  end: z.number(),
  probability: z.number().nullish(),
});
/** Word timings are extra: a list we cannot read leaves the segments without words, never fails the chunk. */
const WhisperWords = z.array(WhisperWord).nullish().catch(null);
type WhisperWord = z.infer<typeof WhisperWord>;

const VerboseJson = z.object({
  language: z.string().nullish(),
  segments: z
    .array(
      z.object({
        start: z.number(),
        end: z.number(),
        text: z.string(),
        words: WhisperWords,
        // diarized_json (OpenAI's gpt-4o-transcribe-diarize): each segment's speaker, "A", "B", ... or a known name.
        speaker: z.string().nullish().catch(null),
      }),
    )
    .nullish(),
  words: WhisperWords,
  text: z.string().nullish(),
  duration: z.number().nullish(),
});

export interface OpenAiEngineOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Ask for speakers: response_format diarized_json (no word timestamps in that format). */
  diarize?: boolean;
  timeoutMs: number;
  /** Hosted APIs take about 25 MB per upload: 10 minutes of 16 kHz 16-bit mono WAV is 19 MB. */
  maxChunkSeconds?: number;
  fetch?: typeof fetch;
  /** Where the server's own error text goes (it may quote part of the key); callers get only the status. */
  log?: Pick<Logger, 'warn'>;
}

function trimSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url[end - 1] === '/') end--;
  return url.slice(0, end);
}

export function createOpenAiEngine(opts: OpenAiEngineOptions): SpeechEngine {
  const endpoint = `${trimSlashes(opts.baseUrl).replace(/\/v1$/, '')}/v1/audio/transcriptions`;
  const doFetch = opts.fetch ?? fetch;
  return {
    name: 'openai-compatible',
    model: opts.model,
    maxChunkSeconds: opts.maxChunkSeconds ?? 600,
    languages: null,
    async transcribe(pcm, { language, signal }): Promise<EngineResult> {
      const form = transcriptionForm(pcm, opts.model, language, opts.diarize ?? false);
      const timeout = AbortSignal.timeout(opts.timeoutMs);
      let res: Response;
      try {
        res = await doFetch(endpoint, {
          method: 'POST',
          body: form,
          headers: opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {},
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
      } catch (err) {
        throw new ServiceError(
          'EXTRACTION_FAILED',
          timeout.aborted
            ? 'the speech-to-text server timed out'
            : `the speech-to-text server is unreachable: ${(err as Error).message}`,
        );
      }
      if (!res.ok) {
        const detail = (await res.text().catch(() => '')).slice(0, 200).replace(/\s+/g, ' ');
        opts.log?.warn({ status: res.status, detail }, 'the speech-to-text server refused a chunk');
        throw new ServiceError('EXTRACTION_FAILED', `the speech-to-text server answered HTTP ${res.status}`);
      }
      const parsed = VerboseJson.safeParse(await res.json().catch(() => null));
      if (!parsed.success)
        throw new ServiceError(
          'EXTRACTION_FAILED',
          `the speech-to-text server answered something other than ${opts.diarize ? 'diarized_json' : 'verbose_json'}`,
        );
      return engineResult(parsed.data, pcm, language);
    },
  };
}

function transcriptionForm(
  pcm: Buffer,
  model: string,
  language: string | null | undefined,
  diarize: boolean,
): FormData {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(wavFile(pcm, SAMPLE_RATE))], { type: 'audio/wav' }), 'audio.wav');
  form.append('model', model);
  if (diarize) {
    // OpenAI refuses a diarizing request over 30 s of audio without a chunking strategy.
    form.append('response_format', 'diarized_json');
    form.append('chunking_strategy', 'auto');
  } else {
    form.append('response_format', 'verbose_json');
    form.append('timestamp_granularities[]', 'segment');
    form.append('timestamp_granularities[]', 'word');
  }
  if (language) form.append('language', language.split('-')[0]!.toLowerCase());
  return form;
}

function engineResult(
  body: z.infer<typeof VerboseJson>,
  pcm: Buffer,
  language: string | null | undefined,
): EngineResult {
  // A server that ignores timestamp_granularities gives only text: one segment over the chunk.
  const segments =
    body.segments ??
    (body.text?.trim() ? [{ start: 0, end: body.duration ?? pcm.length / (2 * SAMPLE_RATE), text: body.text }] : []);
  const words = wordsBySegment(segments, body.words ?? null);
  return {
    language: languageCode(body.language ?? language ?? null),
    segments: segments.map((s, i) => {
      const speaker = 'speaker' in s && s.speaker ? speakerName(s.speaker) : null;
      const w = words[i]?.map((x) => (speaker ? { ...x, speaker } : x));
      return {
        start: s.start,
        end: s.end,
        text: s.text.trim(),
        ...(speaker ? { speaker } : {}),
        ...(w ? { words: w } : {}),
      };
    }),
  };
}

/** OpenAI labels unknown speakers A, B, ...: shown as "Speaker 1", "Speaker 2"; a known speaker's name is kept. */
const speakerName = (label: string) =>
  /^[A-Z]$/.test(label.trim()) ? `Speaker ${label.trim().charCodeAt(0) - 64}` : label.trim().slice(0, 100);

const toWord = (w: WhisperWord): Word => ({
  start: w.start,
  end: w.end,
  text: w.word.trim(),
  ...(typeof w.probability === 'number' ? { confidence: Math.min(1, Math.max(0, w.probability)) } : {}),
});

/**
 * Each segment's words: its own (faster-whisper), else those of the top-level list (OpenAI) whose middle falls in
 * it, a word between segments going to the one before. Null for a segment without any.
 */
function wordsBySegment(
  segments: readonly { start: number; words?: WhisperWord[] | null }[],
  all: readonly WhisperWord[] | null,
): (Word[] | null)[] {
  const out: (Word[] | null)[] = segments.map((s) => (s.words?.length ? s.words.map(toWord) : null));
  if (!all?.length || out.some((w) => w !== null)) return out;
  const sorted = [...all].sort((a, b) => a.start - b.start);
  let k = 0;
  for (const w of sorted) {
    const middle = (w.start + w.end) / 2;
    while (k + 1 < segments.length && middle >= segments[k + 1]!.start) k++;
    (out[k] ??= []).push(toWord(w));
  }
  return out;
}

// OpenAI answers language names ("english"); whisper.cpp and speaches answer codes ("en").
const NAMES: Record<string, string> = {
  english: 'en',
  german: 'de',
  french: 'fr',
  spanish: 'es',
  italian: 'it',
  portuguese: 'pt',
  dutch: 'nl',
  russian: 'ru',
  ukrainian: 'uk',
  polish: 'pl',
  czech: 'cs',
  swedish: 'sv',
  danish: 'da',
  norwegian: 'no',
  finnish: 'fi',
  turkish: 'tr',
  greek: 'el',
  arabic: 'ar',
  hebrew: 'he',
  hindi: 'hi',
  japanese: 'ja',
  korean: 'ko',
  chinese: 'zh',
  vietnamese: 'vi',
  indonesian: 'id',
  thai: 'th',
  romanian: 'ro',
  hungarian: 'hu',
  catalan: 'ca',
  persian: 'fa',
};

export function languageCode(language: string | null): string | null {
  if (!language) return null;
  const l = language.trim().toLowerCase();
  if (/^[a-z]{2,3}(-[a-z0-9]+)*$/.test(l) && l.length <= 8 && !NAMES[l]) return l.split('-')[0]!;
  return NAMES[l] ?? null;
}
