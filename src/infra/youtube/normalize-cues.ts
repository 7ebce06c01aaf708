// One cleanup for every caption format, so json3, srv3/srv1 and WebVTT give the same Segment[] for the same track
// (the srv3 and json3 fixtures of sc3-z_2aNX0 are the same 206 events and must come out identical).
import { fitWords, type WordedSegment } from '../../domain/transcripts/words.ts';

/** A cue as a format parser read it: seconds, end optional, text still raw (entities, markup, newlines). */
export interface RawCue {
  start: number;
  end?: number;
  text: string;
  /** Word timings when the format has them (json3 ASR tracks): each word's start, raw text; ends are the next start. */
  words?: { start: number; text: string }[];
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[body.toLowerCase()] ?? whole;
  });
}

// Zero-width characters: YTSubConverter-styled tracks pad every line with U+200B.
// Zero-width joiner and friends, matched one by one (an alternation, since a class joins ZWJ to its neighbours).
const ZERO_WIDTH = /\u200b|\u200c|\u200d|\u2060|\ufeff/g;
// Only things shaped like tags: <b>, </i>, <font color="...">, <c.colorE5E5E5>, <00:05:04.199>. A bare "<" or
// "a < b" in spoken text is left alone.
const TAG = /<\/?[a-z][^<>]*>|<\d{1,2}(?::\d{2}){1,2}(?:[.,]\d{1,3})?>/gi;

/**
 * Clean text of one cue: markup stripped, entities decoded, zero-width spaces removed, each line trimmed, and lines
 * joined with a space. Consecutive identical lines collapse into one: styled tracks draw a line twice (a shadow
 * copy), which a reader should see once.
 */
export function cleanCueText(raw: string): string {
  const text = decodeEntities(raw.replace(/<br\s*\/?>/gi, '\n').replace(TAG, '')).replace(ZERO_WIDTH, '');
  const lines: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const clean = line.replace(/\s+/g, ' ').trim();
    if (clean && clean !== lines[lines.length - 1]) lines.push(clean);
  }
  return lines.join(' ');
}

const ms = (t: number) => Math.round(t * 1000) / 1000;
/** A cue shorter than this is given this length, so end > start always holds. */
const MIN_DURATION = 0.01;

/**
 * Cleans texts, drops empty cues, sorts by start (stable) and settles ends.
 * - Sorting: a cue out of order (the styled fixture ends with a blank cue at t=0.001) is placed where its start
 *   says, not where the file put it; equal starts keep file order.
 * - Overlap: ASR tracks roll, each cue lasting until well into the next; a cue's end is clipped to the next cue's
 *   start so a reader sees one line at a time. Cues that start together (positioned multi-line captions) are not
 *   clipped to zero length.
 */
export function normalizeCues(cues: RawCue[]): WordedSegment[] {
  const kept = cues
    .filter((c) => Number.isFinite(c.start) && c.start >= 0)
    .map((c) => ({ start: c.start, end: c.end, text: cleanCueText(c.text), words: c.words }))
    .filter((c) => c.text !== '')
    .sort((a, b) => a.start - b.start);
  return kept.map((cue, i) => {
    const next = kept[i + 1];
    let end = cue.end !== undefined && Number.isFinite(cue.end) ? cue.end : (next?.start ?? cue.start + MIN_DURATION);
    if (next && next.start > cue.start && end > next.start) end = next.start;
    if (end - cue.start < MIN_DURATION) end = cue.start + MIN_DURATION;
    const segment = { start: ms(cue.start), end: ms(end), text: cue.text };
    return cue.words ? { ...segment, words: cleanWords(cue.words, segment) } : segment;
  });
}

/** A cue's words cleaned like its text, each ending where the next starts (the last at the segment's end). */
function cleanWords(raw: { start: number; text: string }[], segment: { start: number; end: number }) {
  const words = raw
    .map((w) => ({ start: w.start, text: cleanCueText(w.text) }))
    .filter((w) => w.text !== '' && Number.isFinite(w.start));
  return fitWords(
    words.map((w, i) => ({ start: w.start, end: words[i + 1]?.start ?? segment.end, text: w.text })),
    segment,
  );
}
