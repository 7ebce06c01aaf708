// YouTube's json3 timedtext ({"wireMagic":"pb3","events":[{tStartMs,dDurationMs,segs:[{utf8}]}]}), times in ms.
// Auto-caption tracks time their words: a seg per word, `tOffsetMs` from the event's start (absent on the first),
// with `acAsrConf` (an undocumented scale; 0 in every track published that we have seen, so not a confidence).
// No recorded track with word offsets exists in our fixtures: the shape is read tolerantly (a seg without an offset
// joins the word before it; a seg holding several words spreads them over its span).
import { normalizeCues, type RawCue } from './normalize-cues.ts';
import type { WordedSegment } from '../../domain/subtitles/words.ts';

interface Json3Seg {
  utf8?: string;
  tOffsetMs?: number;
}
interface Json3 {
  events?: { tStartMs?: number; dDurationMs?: number; segs?: Json3Seg[] }[];
}

const ZERO_WIDTH = /\u200b|\u200c|\u200d|\u2060|\ufeff/g;
const hasOffset = (s: Json3Seg) => typeof s?.tOffsetMs === 'number' && Number.isFinite(s.tOffsetMs);

export function parseJson3(body: string): WordedSegment[] {
  const doc = JSON.parse(body) as Json3;
  if (!doc || typeof doc !== 'object' || !Array.isArray(doc.events)) throw new Error('json3 body has no events');
  // Word timing is a property of the track: events of a timed track without offsets are one-word (or music) events.
  const timed = doc.events.some((e) => Array.isArray(e?.segs) && e.segs.some(hasOffset));
  const cues: RawCue[] = [];
  for (const event of doc.events) {
    // Events without segs only set up windows/styles; ASR "append" events carry a lone "\n" and clean to nothing.
    if (!Array.isArray(event.segs) || typeof event.tStartMs !== 'number') continue;
    const start = event.tStartMs / 1000;
    const end = typeof event.dDurationMs === 'number' ? (event.tStartMs + event.dDurationMs) / 1000 : undefined;
    const text = event.segs.map((s) => s?.utf8 ?? '').join('');
    cues.push({ start, end, text, ...(timed ? { words: wordsOf(event.tStartMs, event.segs, end) } : {}) });
  }
  return normalizeCues(cues);
}

/** The words of one event: each seg's text from its offset, whitespace-separated words spread over the seg's span. */
function wordsOf(startMs: number, segs: Json3Seg[], end: number | undefined): { start: number; text: string }[] {
  const timed: { start: number; text: string }[] = [];
  for (const [i, seg] of segs.entries()) {
    const text = typeof seg?.utf8 === 'string' ? seg.utf8 : '';
    if (i > 0 && !hasOffset(seg) && timed.length) timed[timed.length - 1]!.text += text;
    else timed.push({ start: (startMs + (hasOffset(seg) ? seg.tOffsetMs! : 0)) / 1000, text });
  }
  const words: { start: number; text: string }[] = [];
  for (const [i, w] of timed.entries()) {
    const parts = w.text.replace(ZERO_WIDTH, '').split(/\s+/).filter(Boolean);
    const until = timed[i + 1]?.start ?? end ?? w.start;
    const step = parts.length > 1 ? Math.max(0, until - w.start) / parts.length : 0;
    for (const [k, p] of parts.entries()) words.push({ start: w.start + k * step, text: p });
  }
  return words;
}
