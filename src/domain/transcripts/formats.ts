// Transcript renderings: plain text, SubRip, WebVTT and citeable lines. Pure and dependency-free: the API (the
// `format` parameter, the download route, MCP text) and the website (downloads made in the browser) share these.
import type { Segment } from '../video/schemas.ts';

/** A segment with its word timings, when the answer asked for them (`words=true`). */
type TimedSegment = Segment & { words?: readonly { start: number; text: string }[] | null };

/** A chapter title to show before the segment at index `at` of the rendered page (`chapters=true`). */
export interface ChapterHeading {
  at: number;
  title: string;
  start: number;
}

/** The headings before segment `i`, as the lines a format wants. */
const headingsAt = (headings: readonly ChapterHeading[] | undefined, i: number) =>
  headings?.filter((h) => h.at === i) ?? [];

export const TRANSCRIPT_FORMATS = ['json', 'text', 'srt', 'vtt'] as const;
type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];
export type FileFormat = Exclude<TranscriptFormat, 'json'>;
export const FILE_FORMATS = ['text', 'srt', 'vtt'] as const satisfies readonly FileFormat[];

/** Media type and file extension of each file format (SubRip has no registered type; application/x-subrip is usual). */
export const FILE_TYPES: Record<FileFormat, { mediaType: string; extension: string }> = {
  text: { mediaType: 'text/plain', extension: 'txt' },
  srt: { mediaType: 'application/x-subrip', extension: 'srt' },
  vtt: { mediaType: 'text/vtt', extension: 'vtt' },
};

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function stamp(seconds: number, sep: ',' | '.'): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  return `${pad(h)}:${pad(m)}:${pad(s)}${sep}${pad(ms % 1000, 3)}`;
}

/** 75.3 -> "1:15", 3725 -> "1:02:05". */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

/** Always with hours, so every line of a transcript has the same shape: 75.3 -> "0:01:15". */
export function hms(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 3600)}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/** Cue text must not contain a blank line (it would end the cue), nor "-->" in WebVTT. */
const cueText = (text: string) =>
  text
    .replace(/\r/g, '')
    .replace(/\n{2,}/g, '\n')
    .trim();

/** Chapter headings as markdown headings with the chapter's start: readable as plain text too. */
const headingLine = (h: ChapterHeading) => `## ${oneLine(h.title)} (${clock(h.start)})`;

export const toText = (segments: Segment[], headings?: readonly ChapterHeading[]) => {
  const lines: string[] = [];
  segments.forEach((s, i) => {
    for (const h of headingsAt(headings, i)) lines.push(...(lines.length ? [''] : []), headingLine(h), '');
    const text = s.text.trim();
    // A speaker's name starts each of their turns.
    if (text) lines.push(s.speaker && s.speaker !== segments[i - 1]?.speaker ? `${oneLine(s.speaker)}: ${text}` : text);
  });
  return `${lines.join('\n')}\n`;
};

/** `firstNumber`: the cue number of the first segment (a page that starts at offset K numbers from K + 1). */
export const toSrt = (segments: Segment[], firstNumber = 1) =>
  segments
    .map((s, i) => `${i + firstNumber}\n${stamp(s.start, ',')} --> ${stamp(s.end, ',')}\n${cueText(s.text)}\n`)
    .join('\n');

export const toVtt = (segments: TimedSegment[], headings?: readonly ChapterHeading[]) =>
  'WEBVTT\n\n' +
  segments
    .map((s, i) => {
      const notes = headingsAt(headings, i).map((h) => `NOTE Chapter ${clock(h.start)} ${vttNote(h.title)}\n\n`);
      const text = s.words?.length ? wordCues(s, s.words) : noArrow(cueText(s.text));
      const payload = s.speaker ? `<v ${vttEscape(oneLine(s.speaker))}>${text}` : text;
      return `${notes.join('')}${stamp(s.start, '.')} --> ${stamp(s.end, '.')}\n${payload}\n`;
    })
    .join('\n');

const vttEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** No "-->" left (it starts a cue): a run of dashes before ">" becomes one, so "--->" cannot leave an arrow behind. */
const noArrow = (text: string) =>
  text
    .split('>')
    .map((part, i, parts) => (i < parts.length - 1 && part.endsWith('--') ? `${trimDashes(part)}-` : part))
    .join('>');
/** Without its trailing dashes; a loop, since a pattern for a dash run is quadratic on a long one. */
function trimDashes(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === '-') end--;
  return text.slice(0, end);
}
const vttNote = (text: string) => noArrow(oneLine(text));

/**
 * A cue's words as YouTube's own VTT writes them: the first plain, each next one after its timestamp in a `<c>`
 * span (`hello<00:00:01.240><c> world</c>`). WebVTT wants each timestamp after the cue's start, before its end and
 * after the one before: a word whose time breaks that goes without one.
 */
function wordCues(s: Segment, words: readonly { start: number; text: string }[]): string {
  let last = s.start;
  return words
    .map((w, i) => {
      const text = vttEscape(oneLine(w.text));
      if (i === 0) return text;
      const timed = w.start > last && w.start < s.end;
      if (timed) last = w.start;
      return `${timed ? `<${stamp(w.start, '.')}>` : ''}<c> ${text}</c>`;
    })
    .join('');
}

// Lines trimmed and joined with one space (a pattern like /\s*\n\s*/ is quadratic on a long run of spaces). A lone
// carriage return is a line break to WebVTT too.
const oneLine = (text: string) =>
  text
    .split(/\r\n|\r|\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' ');

/** One line per segment, `[h:mm:ss] text`, for reading and citing (MCP text content). */
export const toCiteLines = (segments: Segment[], headings?: readonly ChapterHeading[]) =>
  segments
    .flatMap((s, i) => [
      ...headingsAt(headings, i).flatMap((h) => [...(i > 0 ? [''] : []), headingLine(h), '']),
      `[${hms(s.start)}] ${oneLine(s.text)}`,
    ])
    .join('\n');

export function renderTranscript(
  format: FileFormat,
  segments: TimedSegment[],
  firstNumber = 1,
  headings?: readonly ChapterHeading[],
): string {
  switch (format) {
    case 'text':
      return toText(segments, headings);
    case 'srt':
      return toSrt(segments, firstNumber);
    case 'vtt':
      return toVtt(segments, headings);
  }
}
