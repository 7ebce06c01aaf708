// The segments of answers as the JSON text they were stored as: a cached transcript's text and where its segments
// lie, a page of it, a stored translation's segments whole. The answers made here are values of their full types
// (the segments are read, parsed once, on first use); the surfaces write the stored bytes instead (src/domain/stored-json.ts).
import type { TranslatedTranscript } from '../translations/schemas.ts';
import type { Segment } from '../video/schemas.ts';
import { arrayItemBounds, parseStored, storedArray, storedPage, withStoredPart } from '../stored-json.ts';

/** A stored segments text as the hot cache keeps it. */
export interface CachedSegments {
  /** The text as UTF-8 bytes, never parsed here: answers carry it (or a page of it) as it is. */
  segmentsJson: Uint8Array;
  /** Where each segment lies in `segmentsJson`: a page is a slice of the bytes. */
  bounds: Uint32Array;
}

const utf8 = new TextEncoder();

/** A stored segments text (an array, as stored) as the hot cache keeps it; its segments found once, here. */
export function cachedSegments(body: string): CachedSegments {
  const segmentsJson = utf8.encode(body);
  return { segmentsJson, bounds: arrayItemBounds(segmentsJson) };
}

const SEGMENTS = ['segments'];

/** Segments `from`..`to` (exclusive) of a cached text: their values when read, an answer that carries them. */
export function segmentsPage(t: CachedSegments, from: number, to: number) {
  const part = storedPage(SEGMENTS, t.segmentsJson, t.bounds, from, to);
  let parsed: Segment[] | undefined;
  const values = () => (parsed ??= parseStored<Segment[]>(part));
  return {
    /** The page's values, parsed once. */
    values,
    /** `answer` with this page as its segments. */
    answer: <T extends { segments: Segment[] }>(answer: Omit<T, 'segments'>): T =>
      withStoredPart<T>(answer, part, values),
  };
}

const TRANSLATION_SEGMENTS = ['translation', 'segments'];

type Translation = Omit<TranslatedTranscript, 'segments'>;

/**
 * `answer` with `translation`, its segments the stored text `body` (`count` of them), whole. Each answer names a job
 * of its own: never kept as written.
 */
export function withTranslationSegments<T extends { translation?: TranslatedTranscript }>(
  answer: Omit<T, 'translation'>,
  translation: Translation,
  body: string,
): T {
  const part = storedArray(TRANSLATION_SEGMENTS, body, translation.segmentCount, false);
  return withStoredPart<T>({ ...answer, translation }, part);
}
