import type { Segment } from '../video/schemas.ts';

export interface SegmentChunk {
  /** Index in the full transcript of the first segment to translate. */
  offset: number;
  /** The segments to translate, in order. */
  segments: Segment[];
  /** Neighbouring segments shown to the model for context only (never translated from this chunk). */
  before: Segment[];
  after: Segment[];
}

export interface ChunkOptions {
  /**
   * Characters of segment text per chunk (about 4 characters per token in Latin scripts, 1-2 in CJK).
   * 6,000 characters keeps both prompt and answer far below output-token limits.
   */
  maxChars?: number;
  /** Segments per chunk: bounds how many numbered entries the model must keep aligned in one answer. */
  maxSegments?: number;
  /** Context segments on each side. */
  context?: number;
}

const DEFAULT_CHUNK = { maxChars: 6_000, maxSegments: 120, context: 3 } as const;

/** Splits in order; every segment lands in exactly one chunk; a segment over budget gets a chunk to itself. */
export function chunkSegments(segments: readonly Segment[], opts: ChunkOptions = {}): SegmentChunk[] {
  const maxChars = Math.max(1, opts.maxChars ?? DEFAULT_CHUNK.maxChars);
  const maxSegments = Math.max(1, opts.maxSegments ?? DEFAULT_CHUNK.maxSegments);
  const context = Math.max(0, opts.context ?? DEFAULT_CHUNK.context);
  const chunks: SegmentChunk[] = [];
  let start = 0;
  while (start < segments.length) {
    let end = start;
    let chars = 0;
    while (end < segments.length && end - start < maxSegments) {
      const len = (segments[end] as Segment).text.length;
      if (end > start && chars + len > maxChars) break;
      chars += len;
      end++;
    }
    chunks.push({
      offset: start,
      segments: segments.slice(start, end),
      before: segments.slice(Math.max(0, start - context), start),
      after: segments.slice(end, end + context),
    });
    start = end;
  }
  return chunks;
}
