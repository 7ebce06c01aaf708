import { ServiceError } from '../errors.ts';
import type { WordedSegment } from '../transcripts/words.ts';
import { planChunks } from './plan-chunks.ts';
import type { AudioDecoder, AudioSource, SpeechEngine } from './ports.ts';
import { joinChunks, retimeSegments } from './retime-segments.ts';

export interface SpeechTranscript {
  /** The language the engine reports (or was asked for); null when it cannot tell. */
  language: string | null;
  /** With their words when the engine timed them. */
  segments: WordedSegment[];
  /** Seconds of audio transcribed (what is charged). */
  seconds: number;
}

/**
 * What the requester can pay for. `seconds` bounds the decode; `assertCovers` is asked again before each chunk goes
 * to the engine (the balance may be spent meanwhile) and throws when the decoded audio's price is not covered.
 */
export interface SpeechBudget {
  seconds: number;
  assertCovers(decodedSeconds: number): Promise<void>;
}

/** Decoding is quick next to recognition: it counts for this share of the progress. */
const DECODE_SHARE = 0.1;

/**
 * Audio to timed segments: decode to 16 kHz mono (bounded in seconds and bytes, and at what the budget covers), cut
 * on silence into chunks the engine takes, transcribe them in order, and put every segment back on the original
 * timeline. The length is what was decoded: audio longer than `maxSeconds` is MEDIA_TOO_LARGE, longer than the
 * budget covers is refused by the budget, both before any chunk reaches the engine.
 */
export async function transcribeAudio(
  ports: { decoder: AudioDecoder; engine: SpeechEngine },
  source: AudioSource,
  opts: {
    language?: string | null;
    maxSeconds: number;
    maxBytes: number;
    budget?: SpeechBudget;
    signal?: AbortSignal;
    onProgress?: (fraction: number) => void;
  },
): Promise<SpeechTranscript> {
  const bound = Math.min(opts.maxSeconds, opts.budget?.seconds ?? Infinity);
  const expected = source.seconds && source.seconds > 0 ? Math.min(source.seconds, bound) : null;
  const audio = await ports.decoder.decode(source, {
    maxSeconds: bound,
    maxBytes: opts.maxBytes,
    signal: opts.signal,
    onProgress: (s) => expected && opts.onProgress?.(DECODE_SHARE * Math.min(1, s / expected)),
  });
  try {
    if (audio.seconds <= 0) throw new ServiceError('EXTRACTION_FAILED', 'The media has no audio to transcribe');
    if (audio.seconds > opts.maxSeconds)
      throw new ServiceError(
        'MEDIA_TOO_LARGE',
        `The media is longer than the ${opts.maxSeconds} s allowed for speech-to-text (STT_MAX_SECONDS); nothing was sent to the engine and nothing was charged`,
      );
    const chunks = planChunks(audio.frameRms, audio.seconds, ports.engine.maxChunkSeconds);
    const parts: WordedSegment[][] = [];
    let language: string | null = opts.language ?? null;
    for (const chunk of chunks) {
      opts.signal?.throwIfAborted();
      await opts.budget?.assertCovers(audio.seconds);
      const pcm = await audio.read(chunk.start, chunk.end);
      const result = await ports.engine.transcribe(pcm, { language: opts.language ?? null, signal: opts.signal });
      language ??= result.language;
      parts.push(retimeSegments(result.segments, chunk));
      opts.onProgress?.(DECODE_SHARE + (1 - DECODE_SHARE) * (chunk.end / audio.seconds));
    }
    return { language, segments: joinChunks(parts), seconds: audio.seconds };
  } finally {
    await audio.dispose();
  }
}
