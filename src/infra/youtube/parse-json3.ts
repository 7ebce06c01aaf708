// YouTube's json3 timedtext ({"wireMagic":"pb3","events":[{tStartMs,dDurationMs,segs:[{utf8}]}]}), times in ms.
// Auto-caption tracks time their words: a seg per word, `tOffsetMs` from the event's start (absent on the first),
// with `acAsrConf` (an undocumented scale; 0 in every track published that we have seen, so not a confidence).
// No recorded track with word offsets exists in our fixtures: the shape is read tolerantly (word-offsets.ts).
import type { WordedSegment } from '../../domain/transcripts/words.ts';
import { normalizeCues, type RawCue } from './normalize-cues.ts';
import { hasOffset, wordsOfEvent } from './word-offsets.ts';

interface Json3Seg {
  utf8?: string;
  tOffsetMs?: number;
}
interface Json3 {
  events?: { tStartMs?: number; dDurationMs?: number; segs?: Json3Seg[] }[];
}

const pieceOf = (s: Json3Seg) => ({ text: typeof s?.utf8 === 'string' ? s.utf8 : '', offsetMs: s?.tOffsetMs });

export function parseJson3(body: string): WordedSegment[] {
  const doc = JSON.parse(body) as Json3;
  if (!doc || typeof doc !== 'object' || !Array.isArray(doc.events)) throw new Error('json3 body has no events');
  // Word timing is a property of the track: events of a timed track without offsets are one-word (or music) events.
  const timed = doc.events.some((e) => Array.isArray(e?.segs) && e.segs.some((s) => hasOffset(pieceOf(s))));
  const cues: RawCue[] = [];
  for (const event of doc.events) {
    // Events without segs only set up windows/styles; ASR "append" events carry a lone "\n" and clean to nothing.
    if (!Array.isArray(event.segs) || typeof event.tStartMs !== 'number') continue;
    const start = event.tStartMs / 1000;
    const end = typeof event.dDurationMs === 'number' ? (event.tStartMs + event.dDurationMs) / 1000 : undefined;
    const text = event.segs.map((s) => s?.utf8 ?? '').join('');
    const words = timed ? { words: wordsOfEvent(event.tStartMs, event.segs.map(pieceOf), end) } : {};
    cues.push({ start, end, text, ...words });
  }
  return normalizeCues(cues);
}
