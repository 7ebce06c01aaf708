import type { Chapter, Segment } from '../video/schemas.ts';
import type { ArticleSection } from './schemas.ts';

export interface TimeWindow {
  start: number;
  end: number;
  title?: string;
  segments: Segment[];
}

/** The video's length: the reported duration, or the transcript's last end when it is unknown (0, live). */
export const videoLength = (segments: readonly Segment[], durationSeconds: number): number =>
  durationSeconds > 0 ? durationSeconds : segments.reduce((m, s) => Math.max(m, s.end), 0);

/** Consecutive windows covering [0, duration]; a segment belongs to the window its start falls in. */
export function windowsByTime(segments: readonly Segment[], duration: number, seconds: number): TimeWindow[] {
  const count = Math.max(1, Math.ceil(duration / Math.max(1, seconds)));
  const size = duration / count;
  const bounds = Array.from({ length: count }, (_, k) => ({
    start: k * size,
    end: k === count - 1 ? duration : (k + 1) * size,
  }));
  return fill(bounds, segments);
}

/** One window per chapter (chapters sorted, clipped to the video); empty when there are fewer than two. */
export function windowsByChapters(
  segments: readonly Segment[],
  duration: number,
  chapters: readonly Chapter[],
): TimeWindow[] {
  const sorted = chapters.filter((c) => c.start >= 0 && c.start < duration).sort((a, b) => a.start - b.start);
  if (sorted.length < 2) return [];
  const bounds = sorted.map((c, k) => ({
    start: k === 0 ? 0 : c.start,
    end: sorted[k + 1]?.start ?? duration,
    title: c.title,
  }));
  return fill(bounds, segments);
}

function fill(bounds: Array<Omit<TimeWindow, 'segments'>>, segments: readonly Segment[]): TimeWindow[] {
  const windows: TimeWindow[] = bounds.map((b) => ({ ...b, segments: [] }));
  let w = 0;
  for (const s of [...segments].sort((a, b) => a.start - b.start)) {
    while (w < windows.length - 1 && s.start >= (windows[w] as TimeWindow).end) w++;
    (windows[w] as TimeWindow).segments.push(s);
  }
  return windows;
}

/** Transcript lines with whole-second timestamps the model can cite back. */
export const timedText = (segments: readonly Segment[]): string =>
  segments.map((s) => `[t=${Math.floor(s.start)}] ${s.text.replace(/\s+/g, ' ').trim()}`).join('\n');

/**
 * Makes sections safe to show: finite numbers clamped to [0, duration], sorted by start, each ending no later
 * than the next one starts, blank ones dropped. Models sometimes answer mm:ss as seconds or overshoot the end.
 */
export function fixSections(sections: readonly ArticleSection[], duration: number): ArticleSection[] {
  const clamp = (t: number) => (Number.isFinite(t) ? Math.min(Math.max(t, 0), duration) : 0);
  const sorted = sections
    .filter((s) => s.heading.trim() || s.text.trim())
    .map((s) => ({ heading: s.heading.trim(), text: s.text.trim(), start: clamp(s.start), end: clamp(s.end) }))
    .sort((a, b) => a.start - b.start);
  return sorted.map((s, k) => {
    const next = sorted[k + 1]?.start ?? duration;
    const end = s.end > s.start ? Math.min(s.end, next) : next;
    return { ...s, end: Math.max(s.start, end) };
  });
}
