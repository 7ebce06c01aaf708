// Chapters as YouTube itself derives them from a description: lines carrying a timestamp, the first at 0:00, at
// least three, in ascending order, each at least 10 seconds long (YouTube's published rules for "video chapters").
// Used when neither the player nor the watch page's next answer carries chapter markers (most player answers do not).
import type { Chapter } from './schemas.ts';

const MIN_CHAPTERS = 3;
const MIN_LENGTH_SECONDS = 10;
// h:mm:ss, mm:ss or m:ss, optionally in brackets, at the start or at the end of a line.
const STAMP = String.raw`[(\[]?((?:\d{1,2}:)?\d{1,2}:\d{2})[)\]]?`;
// Anchored at one end only, on a trimmed line; the title is the rest. A whole-line pattern with (.+?) between \s*
// runs is cubic on a long line of spaces, and a description is anyone's text.
const LEADING = new RegExp(String.raw`^(?:[-•*▶►]\s*)?${STAMP}`);
const TRAILING = new RegExp(`${STAMP}$`);
const SEPARATORS = new Set(['-', '–', '—', ':', '|']);

/** `s` without separators and whitespace at either end (a title's "- " or " |"). */
function trimSeparators(s: string): string {
  let start = 0;
  let end = s.length;
  const skip = (c: string | undefined) => c !== undefined && (SEPARATORS.has(c) || c.trim() === '');
  while (start < end && skip(s[start])) start++;
  while (end > start && skip(s[end - 1])) end--;
  return s.slice(start, end);
}

/** The stamp and title of a "0:00 Intro" or "Intro - 0:00" line, if it is one. */
function chapterLine(raw: string): { stamp: string; title: string } | undefined {
  const line = raw.trim();
  const lead = LEADING.exec(line);
  if (lead) {
    // After the stamp: an optional separator (a closing ")" or "." too), then the title.
    let rest = line.slice(lead[0].length).trimStart();
    if (rest[0] === '.' || rest[0] === ')') rest = rest.slice(1);
    const title = trimSeparators(rest);
    if (title) return { stamp: lead[1]!, title };
  }
  const trail = TRAILING.exec(line);
  if (trail && trail.index > 0) {
    const title = trimSeparators(line.slice(0, trail.index));
    if (title) return { stamp: trail[1]!, title };
  }
  return undefined;
}

function seconds(stamp: string): number {
  return stamp.split(':').reduce((total, part) => total * 60 + Number(part), 0);
}

/** Chapters from "0:00 Intro" / "Intro - 0:00" lines; [] unless the description follows YouTube's rules. */
export function chaptersFromDescription(description: string, durationSeconds = 0): Chapter[] {
  const found: Chapter[] = [];
  for (const line of description.split(/\r?\n/)) {
    const chapter = chapterLine(line);
    if (!chapter) continue;
    const { stamp, title } = chapter;
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
