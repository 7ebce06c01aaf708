// WebVTT as YouTube (fmt=vtt) and youtube-dl write it: a header block (Kind:, Language:, Style: ...), cues with
// settings after the timing, inline <00:00:01.000> word timestamps and <c.class> spans. A timing line starts a new
// cue even without a blank line before it (seen in the wild: timedtext.asr.legacy-vtt.EXCERPT.vtt).
import type { Segment } from '../../domain/video/schemas.ts';
import { normalizeCues, type RawCue } from './normalize-cues.ts';

const TIMING = /^\s*((?:\d+:)?\d{1,2}:\d{2}[.,]\d{1,3})\s+-->\s+((?:\d+:)?\d{1,2}:\d{2}[.,]\d{1,3})/;

export function isWebVtt(body: string): boolean {
  return /^\ufeff?WEBVTT(?:[ \t]|\r?\n|$)/.test(body);
}

export function parseVtt(body: string): Segment[] {
  if (!isWebVtt(body)) throw new Error('not a WebVTT document');
  const lines = body.replace(/^\ufeff/, '').split(/\r?\n/);
  const cues: RawCue[] = [];
  let current: { start: number; end: number; lines: string[] } | undefined;
  const flush = () => {
    if (current) cues.push({ start: current.start, end: current.end, text: current.lines.join('\n') });
    current = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const timing = TIMING.exec(line);
    if (timing) {
      flush();
      current = { start: seconds(timing[1] ?? ''), end: seconds(timing[2] ?? ''), lines: [] };
      continue;
    }
    if (line.trim() === '') {
      flush();
      continue;
    }
    // A line right before a timing line that starts its block is a cue identifier, not text.
    const nextIsTiming = TIMING.test(lines[i + 1] ?? '');
    if (current && !(nextIsTiming && (lines[i - 1] ?? '').trim() === '')) current.lines.push(line);
  }
  flush();
  return normalizeCues(cues);
}

function seconds(stamp: string): number {
  const parts = stamp.replace(',', '.').split(':').map(Number);
  return parts.reduce((total, part) => total * 60 + part, 0);
}
