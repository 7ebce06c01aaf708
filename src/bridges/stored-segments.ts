// A whole stored transcript is answered with the JSON text of its segments as stored, spliced into the serialized
// answer where the procedure left an empty array, instead of parsing, validating and serializing 1,000 segments per
// request. The text was produced by JSON.stringify of validated segments when the transcript was stored.
import { createLruCache } from '../domain/lru-cache.ts';

const EMPTY = '"segments":[]';
const SEGMENTS_KEY = Buffer.from('"segments":');
/** Rendered answers live as long as the cached transcripts they are made of. */
const ANSWER_TTL_MS = 10 * 60_000;

/**
 * `json` with the first occurrence of each placeholder replaced by its parts, as UTF-8 bytes; undefined when a
 * placeholder is missing. A first occurrence of a `"key":<empty>` sequence is the key itself: inside a JSON string a
 * quote is always escaped, so the sequence cannot come from a value.
 */
export function splicePlaceholders(
  json: string,
  cuts: { placeholder: string; bytes: Uint8Array[] }[],
): Buffer<ArrayBuffer> | undefined {
  const found = cuts.map((c) => ({ ...c, at: json.indexOf(c.placeholder) })).sort((a, b) => a.at - b.at);
  if (found.length === 0 || found[0]!.at < 0) return undefined;
  const parts: Uint8Array[] = [];
  let from = 0;
  for (const cut of found) {
    parts.push(Buffer.from(json.slice(from, cut.at)), ...cut.bytes);
    from = cut.at + cut.placeholder.length;
  }
  parts.push(Buffer.from(json.slice(from)));
  return Buffer.concat(parts);
}

/**
 * `json` with its first `"segments":[]` replaced by `"segments":<segmentsJson>`, as UTF-8 bytes. The segments stay
 * bytes throughout: no 100 KB string is made per answer.
 */
export function spliceSegments(json: string, segmentsJson: Uint8Array): Buffer<ArrayBuffer> {
  const spliced = splicePlaceholders(json, [{ placeholder: EMPTY, bytes: [SEGMENTS_KEY, segmentsJson] }]);
  if (!spliced) throw new Error('the answer has no empty segments to fill');
  return spliced;
}

/**
 * Spliced answers kept as the bytes written to the socket, so that the same answer to the same question (the hot path:
 * one cached transcript asked for again and again) allocates and encodes nothing per request. Keyed by the answer
 * without its segments, and valid only for the very segments text it was made with; bounded in bytes.
 */
export function createSplicedAnswers(maxBytes: number) {
  const answers = createLruCache<{ segmentsJson: Uint8Array; bytes: Uint8Array<ArrayBuffer> }>({ maxBytes });
  return {
    render(json: string, segmentsJson: Uint8Array): Uint8Array<ArrayBuffer> {
      const hit = answers.get(json);
      // The very bytes the transcript cache holds: a transcript read again (replaced, or evicted) renders anew.
      if (hit && hit.segmentsJson === segmentsJson) return hit.bytes;
      const bytes = spliceSegments(json, segmentsJson);
      // The segments bytes are held too (shared with the transcript cache while it lives there): counted once more.
      answers.set(json, { segmentsJson, bytes }, bytes.length + segmentsJson.length, ANSWER_TTL_MS);
      return bytes;
    },
    stats: () => answers.stats(),
  };
}
export type SplicedAnswers = ReturnType<typeof createSplicedAnswers>;
