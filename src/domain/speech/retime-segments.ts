import { fitWords, type WordedSegment } from '../transcripts/words.ts';

/**
 * Moves a chunk's segments (times relative to the chunk) onto the original timeline: shifted by the chunk's start,
 * clamped inside the chunk, empty text dropped, and each end kept after its start.
 */
export function retimeSegments(
  segments: readonly WordedSegment[],
  chunk: { start: number; end: number },
): WordedSegment[] {
  const out: WordedSegment[] = [];
  for (const s of segments) {
    const text = s.text.replace(/\s+/g, ' ').trim();
    if (!text) continue;
    const start = clamp(chunk.start + s.start, chunk.start, chunk.end);
    const end = clamp(chunk.start + s.end, start, chunk.end);
    const segment = {
      start: round3(start),
      end: round3(end > start ? end : Math.min(chunk.end, start + 0.01)),
      text,
      ...(s.speaker ? { speaker: s.speaker } : {}),
    };
    const words = s.words?.map((w) => ({ ...w, start: chunk.start + w.start, end: chunk.start + w.end }));
    out.push(words ? { ...segment, words: fitWords(words, segment) } : segment);
  }
  return out;
}

/** Segments of consecutive chunks, in order, with no overlap (an engine's last segment may run past a cut). */
export function joinChunks(parts: readonly WordedSegment[][]): WordedSegment[] {
  const all = parts.flat().sort((a, b) => a.start - b.start);
  for (let i = 0; i + 1 < all.length; i++) {
    const next = all[i + 1]!;
    if (all[i]!.end > next.start) {
      const cut = { ...all[i]!, end: Math.max(all[i]!.start, next.start) };
      all[i] = cut.words ? { ...cut, words: fitWords(cut.words, cut) } : cut;
    }
  }
  return all.filter((s) => s.end > s.start || s.text.length > 0);
}

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));
const round3 = (n: number) => Math.round(n * 1000) / 1000;
