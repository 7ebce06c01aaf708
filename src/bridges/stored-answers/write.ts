// The one writer of stored answers: a response body as its surface's framework serialized it, each placeholder
// (src/domain/stored-json.ts) replaced by the stored text of the part it names. The envelope is the framework's
// own; nothing is parsed, validated or serialized again.
import { createLruCache } from '../../domain/lru-cache.ts';
import { STORED_PLACEHOLDER, storedLength, type StoredPart } from '../../domain/stored-json.ts';

/** A placeholder as JSON writes it: `"\u0000stored part ` then the part's place, then `"`. */
const OPENING = JSON.stringify(STORED_PLACEHOLDER).slice(0, -1);

/**
 * `json` with every placeholder replaced by the text of the part it names in `parts`, as UTF-8 bytes; `json` itself
 * when it holds none. The part's bytes are copied once, into the body.
 */
export function writeStored(json: string, parts: readonly StoredPart[]): string | Uint8Array<ArrayBuffer> {
  let at = json.indexOf(OPENING);
  if (at < 0) return json;
  const pieces: Uint8Array[] = [];
  let from = 0;
  let length = 0;
  while (at >= 0) {
    const end = json.indexOf('"', at + OPENING.length);
    const part = parts[Number(json.slice(at + OPENING.length, end))];
    if (!part) throw new Error('a placeholder names no stored part of this answer');
    const head = Buffer.from(json.slice(from, at));
    pieces.push(head, ...part.json);
    length += head.length + storedLength(part);
    from = end + 1;
    at = json.indexOf(OPENING, from);
  }
  const tail = Buffer.from(json.slice(from));
  pieces.push(tail);
  return Buffer.concat(pieces, length + tail.length);
}

/** Written answers live as long as the cached transcripts they are made of. */
const ANSWER_TTL_MS = 10 * 60_000;

/**
 * `writeStored` with the bytes of recent answers kept, so that the same answer asked for again (the hot path: one
 * stored transcript, again and again) allocates nothing: a fresh 100 KB body per request costs more in garbage
 * collection than writing it. Keyed by the serialized answer (placeholders in it), valid only for the very stored
 * texts and pages it was written with; bounded in bytes.
 */
export function createWrittenAnswers(maxBytes: number) {
  const answers = createLruCache<{ parts: readonly StoredPart[]; bytes: Uint8Array<ArrayBuffer> }>({ maxBytes });
  const same = (a: readonly StoredPart[], b: readonly StoredPart[]) =>
    a.length === b.length &&
    a.every(
      (p, i) =>
        p.source === b[i]!.source && p.from === b[i]!.from && p.to === b[i]!.to && p.path.join() === b[i]!.path.join(),
    );
  return {
    write(json: string, parts: readonly StoredPart[]): string | Uint8Array<ArrayBuffer> {
      // Answers that are new every time (they name a job of their own) would only push the others out.
      if (parts.length === 0 || !parts.every((p) => p.repeats)) return writeStored(json, parts);
      const hit = answers.get(json);
      if (hit && same(hit.parts, parts)) return hit.bytes;
      const bytes = writeStored(json, parts);
      if (typeof bytes === 'string') return bytes;
      // The stored texts are held too (shared with the transcript cache while they live there): counted once more.
      const held = parts.reduce((n, p) => n + p.source.length, 0);
      answers.set(json, { parts, bytes }, 2 * json.length + bytes.length + held, ANSWER_TTL_MS);
      return bytes;
    },
    stats: () => answers.stats(),
  };
}
