// `chapters=true`: a transcript's segments grouped under the video's chapters (the chapter data of the video info
// answer: YouTube's markers, else the description's timestamps).
import { z } from 'zod';
import type { Chapter } from '../video/schemas.ts';
import { TranscriptSegment } from './words.ts';

export const TranscriptChapter = z.object({
  title: z.string(),
  start: z.number().describe('Seconds: where the chapter starts'),
  end: z.number().describe('Seconds: where the next chapter starts (the video’s end for the last)'),
  offset: z.number().int().describe('Index, in the whole transcript, of the chapter’s first segment in this page'),
  segments: z.array(TranscriptSegment).describe('The segments of this page that start in the chapter'),
});
export type TranscriptChapter = z.infer<typeof TranscriptChapter>;

/**
 * The page's segments (the first at index `offset` of the transcript) under the chapters they start in; chapters
 * with none of them are left out. The first chapter also takes anything before its start. Null without chapters.
 */
export function groupByChapters<S extends { start: number }>(
  chapters: readonly Chapter[],
  segments: readonly S[],
  offset: number,
  videoEnd: number,
): { title: string; start: number; end: number; offset: number; segments: S[] }[] | null {
  const sorted = chapters.filter((c) => Number.isFinite(c.start)).sort((a, b) => a.start - b.start);
  if (!sorted.length) return null;
  const groups = sorted.map((c, k) => ({
    title: c.title,
    start: c.start,
    end: sorted[k + 1]?.start ?? Math.max(videoEnd, c.start),
    offset: -1,
    segments: [] as S[],
  }));
  let k = 0;
  segments.forEach((s, i) => {
    while (k + 1 < groups.length && s.start >= groups[k + 1]!.start) k++;
    const g = groups[k]!;
    if (g.offset < 0) g.offset = offset + i;
    g.segments.push(s);
  });
  return groups.filter((g) => g.segments.length > 0);
}
