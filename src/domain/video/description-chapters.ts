// Chapters as YouTube itself derives them from a description: lines carrying a timestamp, the first at 0:00, at
// least three, in ascending order, each at least 10 seconds long (YouTube's published rules for "video chapters").
// Used when neither the player nor the watch page's next answer carries chapter markers (most player answers do not).
import type { Chapter } from './schemas.ts';

const MIN_CHAPTERS = 3;
const MIN_LENGTH_SECONDS = 10;
// h:mm:ss, mm:ss or m:ss, optionally in brackets, at the start or at the end of a line.
const STAMP = String.raw`[(\[]?((?:\d{1,2}:)?\d{1,2}:\d{2})[)\]]?`;
const LEADING = new RegExp(String.raw`^\s*(?:[-•*▶►]\s*)?${STAMP}\s*(?:[-–—:|.)]\s*)?(.+?)\s*$`);
const TRAILING = new RegExp(String.raw`^\s*(.+?)\s*(?:[-–—:|]\s*)?${STAMP}\s*$`);

function seconds(stamp: string): number {
  return stamp.split(':').reduce((total, part) => total * 60 + Number(part), 0);
}

/** Chapters from "0:00 Intro" / "Intro - 0:00" lines; [] unless the description follows YouTube's rules. */
export function chaptersFromDescription(description: string, durationSeconds = 0): Chapter[] {
  const found: Chapter[] = [];
  for (const line of description.split(/\r?\n/)) {
    const lead = LEADING.exec(line);
    const trail = lead ? null : TRAILING.exec(line);
    const stamp = lead?.[1] ?? trail?.[2];
    const title = (lead?.[2] ?? trail?.[1])?.replace(/^[-–—:|\s]+|[-–—:|\s]+$/g, '');
    if (!stamp || !title) continue;
    const start = seconds(stamp);
    // Minutes and seconds past 59 are not a time (a score "3:75", a ratio).
    if (
      stamp
        .split(':')
        .slice(1)
        .some((part) => Number(part) > 59)
    )
      continue;
    found.push({ title, start });
  }
  if (found.length < MIN_CHAPTERS || found[0]!.start !== 0) return [];
  for (let i = 1; i < found.length; i++) {
    if (found[i]!.start - found[i - 1]!.start < MIN_LENGTH_SECONDS) return [];
  }
  if (
    durationSeconds > 0 &&
    (found.at(-1)!.start >= durationSeconds || durationSeconds - found.at(-1)!.start < MIN_LENGTH_SECONDS)
  )
    return [];
  return found;
}
