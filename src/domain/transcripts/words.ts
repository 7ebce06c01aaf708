// Word-level timing: where a source has it (YouTube's auto-captions in json3, Whisper servers asked for word
// timestamps, pocketsphinx), each segment carries its words. Stored beside the segments (one entry per segment, null
// where the source has none), so that answers without `words` are the stored segments as they always were.
import { z } from 'zod';
import { Segment } from '../video/schemas.ts';

export const Word = z.object({
  start: z.number().describe('Seconds from the start of the video'),
  end: z.number().describe('Seconds; start <= end, both inside the segment'),
  text: z.string(),
  confidence: z
    .number()
    .optional()
    .describe('0-1, when the engine reports one (Whisper servers that send `probability`, pocketsphinx)'),
  speaker: z.string().optional().describe('Its segment’s speaker, when the engine tells speakers apart'),
});
export type Word = z.infer<typeof Word>;

/** A segment as a source read it, with its words when the source timed them. */
export interface WordedSegment extends Segment {
  words?: Word[] | null;
}

/** A segment of a transcript answer asked for with `words`. */
export const TranscriptSegment = Segment.extend({
  words: z
    .array(Word)
    .nullable()
    .optional()
    .describe(
      'With `words=true`: the segment’s words, each with its own start and end, in order; null when the source has no word timing (see wordTiming)',
    ),
});
export type TranscriptSegment = z.infer<typeof TranscriptSegment>;

export const WordTiming = z
  .object({
    available: z.boolean().describe('Some segments carry word timings'),
    note: z.string().describe('Where the word timings come from, or why there are none'),
  })
  .describe('With `words=true`: whether this transcript has word timings, and from where');
export type WordTiming = z.infer<typeof WordTiming>;

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/**
 * Words clamped into their segment and kept in order (each starts no earlier than the one before, ends no earlier
 * than it starts), each keeping its confidence and speaker; empty words dropped. Null when nothing is left.
 */
export function fitWords(
  words: readonly Word[] | null | undefined,
  segment: { start: number; end: number },
): Word[] | null {
  if (!words?.length) return null;
  const out: Word[] = [];
  let floor = segment.start;
  for (const w of words) {
    const text = w.text.replace(/\s+/g, ' ').trim();
    if (!text || !Number.isFinite(w.start) || !Number.isFinite(w.end)) continue;
    const start = round3(Math.min(segment.end, Math.max(floor, w.start)));
    const end = round3(Math.min(segment.end, Math.max(start, w.end)));
    out.push({
      start,
      end,
      text,
      ...(w.confidence === undefined ? {} : { confidence: w.confidence }),
      ...(w.speaker ? { speaker: w.speaker } : {}),
    });
    floor = start;
  }
  return out.length ? out : null;
}

/**
 * Splits sources' segments into what is stored: the segments as before, and their words (one entry per segment)
 * or null when no segment has any.
 */
export function splitWords(segments: readonly WordedSegment[]): {
  segments: Segment[];
  words: (Word[] | null)[] | null;
} {
  const words = segments.map((s) => fitWords(s.words, s));
  return {
    segments: segments.map(({ start, end, text, speaker }) => ({ start, end, text, ...(speaker ? { speaker } : {}) })),
    words: words.some((w) => w !== null) ? words : null,
  };
}

const WHY_NONE: Record<string, string> = {
  manual: 'Captions written by people carry no word timing: every segment’s words is null',
  asr: 'No word timing is stored for this auto-caption track (YouTube sent no word offsets, or it was stored before word timing was kept): every segment’s words is null',
  translation: 'Translations carry no word timing: every segment’s words is null',
  speech: 'This speech-to-text transcript was stored without word timing: every segment’s words is null',
};
const FROM: Record<string, string> = {
  asr: 'YouTube’s auto-captions (per-word offsets of the caption track)',
  speech: 'the speech-to-text engine’s word timestamps',
};

export function wordTimingOf(origin: string, available: boolean): WordTiming {
  return available
    ? { available, note: `Word timings from ${FROM[origin] ?? 'the source'}` }
    : { available, note: WHY_NONE[origin] ?? 'The source has no word timing: every segment’s words is null' };
}
