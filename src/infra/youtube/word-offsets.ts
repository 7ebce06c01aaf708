// Word timings inside one timed caption event, as json3 (`segs[].tOffsetMs`) and srv3 (`<s t="ms">`) carry them on
// auto-caption tracks: each piece at the event's start plus its offset (the first piece has none). Read tolerantly: a
// piece without an offset joins the word before it; a piece holding several words spreads them over its span.

export interface TimedPiece {
  text: string;
  /** Milliseconds from the event's start; absent (or not a finite number) on the first piece. */
  offsetMs?: unknown;
}

const ZERO_WIDTH = /\u200b|\u200c|\u200d|\u2060|\ufeff/g;
export const hasOffset = (p: { offsetMs?: unknown }) => typeof p.offsetMs === 'number' && Number.isFinite(p.offsetMs);

/** The words of one event (starts in seconds, raw text); `end`: the event's end in seconds, when known. */
export function wordsOfEvent(
  startMs: number,
  pieces: readonly TimedPiece[],
  end: number | undefined,
): { start: number; text: string }[] {
  const timed: { start: number; text: string }[] = [];
  for (const [i, piece] of pieces.entries()) {
    if (i > 0 && !hasOffset(piece) && timed.length) timed[timed.length - 1]!.text += piece.text;
    else
      timed.push({ start: (startMs + (hasOffset(piece) ? (piece.offsetMs as number) : 0)) / 1000, text: piece.text });
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
