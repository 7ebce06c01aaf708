// YouTube's json3 timedtext ({"wireMagic":"pb3","events":[{tStartMs,dDurationMs,segs:[{utf8}]}]}), times in ms.
import type { Segment } from '../../domain/video/schemas.ts';
import { normalizeCues, type RawCue } from './normalize-cues.ts';

interface Json3 {
  events?: { tStartMs?: number; dDurationMs?: number; segs?: { utf8?: string }[] }[];
}

export function parseJson3(body: string): Segment[] {
  const doc = JSON.parse(body) as Json3;
  if (!doc || typeof doc !== 'object' || !Array.isArray(doc.events)) throw new Error('json3 body has no events');
  const cues: RawCue[] = [];
  for (const event of doc.events) {
    // Events without segs only set up windows/styles; ASR "append" events carry a lone "\n" and clean to nothing.
    if (!Array.isArray(event.segs) || typeof event.tStartMs !== 'number') continue;
    const start = event.tStartMs / 1000;
    const end = typeof event.dDurationMs === 'number' ? (event.tStartMs + event.dDurationMs) / 1000 : undefined;
    cues.push({ start, end, text: event.segs.map((s) => s.utf8 ?? '').join('') });
  }
  return normalizeCues(cues);
}
