import { ServiceError } from '../errors.ts';
import type { Segment } from '../video/schemas.ts';
import { planChunks } from './plan-chunks.ts';
import type { AudioDecoder, AudioSource, SpeechEngine } from './ports.ts';
import { joinChunks, retimeSegments } from './retime-segments.ts';

export interface SpeechTranscript {
  /** The language the engine reports (or was asked for); null when it cannot tell. */
  language: string | null;
  segments: Segment[];
  /** Seconds of audio transcribed (what is charged). */
  seconds: number;
}

/** Decoding is quick next to recognition: it counts for this share of the progress. */
const DECODE_SHARE = 0.1;

/**
 * Audio to timed segments: decode to 16 kHz mono (bounded in seconds and bytes), cut on silence into chunks the
 * engine takes, transcribe them in order, and put every segment back on the original timeline.
 */
export async function transcribeAudio(
  ports: { decoder: AudioDecoder; engine: SpeechEngine },
  source: AudioSource,
  opts: {
    language?: string | null;
    maxSeconds: number;
    maxBytes: number;
    signal?: AbortSignal;
    onProgress?: (fraction: number) => void;
  },
): Promise<SpeechTranscript> {
  const expected = source.seconds && source.seconds > 0 ? Math.min(source.seconds, opts.maxSeconds) : null;
  const audio = await ports.decoder.decode(source, {
    maxSeconds: opts.maxSeconds,
    maxBytes: opts.maxBytes,
    signal: opts.signal,
    onProgress: (s) => expected && opts.onProgress?.(DECODE_SHARE * Math.min(1, s / expected)),
  });
  try {
    if (audio.seconds <= 0) throw new ServiceError('EXTRACTION_FAILED', 'The media has no audio to transcribe');
    const chunks = planChunks(audio.frameRms, audio.seconds, ports.engine.maxChunkSeconds);
    const parts: Segment[][] = [];
    let language: string | null = opts.language ?? null;
    for (const chunk of chunks) {
      opts.signal?.throwIfAborted();
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
