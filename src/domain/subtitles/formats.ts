// Transcript renderings: plain text, SubRip, WebVTT and citeable lines. Pure and dependency-free: the API (the
// `format` parameter, the download route, MCP text) and the website (downloads made in the browser) share these.
import type { Segment } from '../video/schemas.ts';

export const TRANSCRIPT_FORMATS = ['json', 'text', 'srt', 'vtt'] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];
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

export const toText = (segments: Segment[]) => {
  const lines = segments.map((s) => s.text.trim()).filter(Boolean);
  return `${lines.join('\n')}\n`;
};

/** `firstNumber`: the cue number of the first segment (a page that starts at offset K numbers from K + 1). */
export const toSrt = (segments: Segment[], firstNumber = 1) =>
  segments
    .map((s, i) => `${i + firstNumber}\n${stamp(s.start, ',')} --> ${stamp(s.end, ',')}\n${cueText(s.text)}\n`)
    .join('\n');

export const toVtt = (segments: Segment[]) =>
  'WEBVTT\n\n' +
  segments
    .map((s) => `${stamp(s.start, '.')} --> ${stamp(s.end, '.')}\n${cueText(s.text).replace(/-->/g, '->')}\n`)
    .join('\n');

// Lines trimmed and joined with one space (a pattern like /\s*\n\s*/ is quadratic on a long run of spaces).
const oneLine = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' ');

/** One line per segment, `[h:mm:ss] text`, for reading and citing (MCP text content). */
export const toCiteLines = (segments: Segment[]) =>
  segments.map((s) => `[${hms(s.start)}] ${oneLine(s.text)}`).join('\n');

export function renderTranscript(format: FileFormat, segments: Segment[], firstNumber = 1): string {
  switch (format) {
    case 'text':
      return toText(segments);
    case 'srt':
      return toSrt(segments, firstNumber);
    case 'vtt':
      return toVtt(segments);
  }
}
