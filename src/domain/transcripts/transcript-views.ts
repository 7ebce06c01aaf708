// The views `words` and `chapters` add to a page of a stored transcript: new objects around the shared segments,
// made only when asked for (the cached segments are shared by every request and never mutated).
import type { Chapter, Segment } from '../video/schemas.ts';
import type { ChapterHeading } from './formats.ts';
import type { CachedTranscript } from './hot-cache.ts';
import type { Transcript } from './schemas.ts';
import { groupByChapters } from './transcript-chapters.ts';
import { wordTimingOf, type Word } from './words.ts';

export interface PageViews {
  /** The page's segments, with their words when asked for. */
  page(): Segment[];
  /** Fields the answer gains: `wordTiming`, `chapters`. */
  fields: Pick<Transcript, 'wordTiming' | 'chapters'>;
  /** Chapter titles for the text renderings. */
  headings?: ChapterHeading[];
  /** Whether the answer differs from the stored segments (then it cannot be sent as stored). */
  changed: boolean;
}

export function pageViews(
  t: CachedTranscript,
  view: { words?: boolean; chapters?: boolean },
  offset: number,
  plain: () => Segment[],
  video?: { chapters: readonly Chapter[]; duration: number } | null,
): PageViews {
  const words = view.words ? t.words() : undefined;
  let worded: (Segment & { words: Word[] | null })[] | undefined;
  const page =
    words === undefined
      ? plain
      : () => (worded ??= plain().map((s, i) => ({ ...s, words: words?.[offset + i] ?? null })));
  const groups = view.chapters
    ? groupByChapters(video?.chapters ?? [], page(), offset, Math.max(t.duration, video?.duration ?? 0))
    : undefined;
  return {
    page,
    fields: {
      ...(view.words ? { wordTiming: wordTimingOf(t.origin, t.hasWords) } : {}),
      ...(groups === undefined ? {} : { chapters: groups }),
    },
    headings: groups?.map((g) => ({ at: g.offset - offset, title: g.title, start: g.start })),
    changed: !!(view.words || view.chapters),
  };
}
