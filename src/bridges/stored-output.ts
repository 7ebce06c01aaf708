// The one output step for answers that carry a stored part (src/domain/stored-json.ts): each surface serializes its
// answer as it always does, the part's key holding a placeholder (src/router/stored-output.ts), and asks here for the
// bytes to send, the part's stored text written in its place. Nothing is parsed, validated or serialized again.
import { createLruCache } from '../domain/lru-cache.ts';
import { storedLength, storedPartOf, type StoredPart } from '../domain/stored-json.ts';
import { STORED_PLACEHOLDER } from '../router/stored-output.ts';

const PLACEHOLDER_JSON = JSON.stringify(STORED_PLACEHOLDER);

/** The stored parts of answers (a tRPC batch has several), in the order they are serialized. */
export function storedPartsOf(answers: readonly unknown[]): StoredPart[] {
  const parts: StoredPart[] = [];
  for (const a of answers) {
    const part = storedPartOf(a);
    if (part) parts.push(part);
  }
  return parts;
}

/**
 * `json`, an answer serialized in its surface's envelope, with the placeholders replaced by the parts' text in order,
 * as UTF-8 bytes; `json` itself when no part is carried. The part's bytes are copied once, into the body.
 */
export function writeStored(json: string, parts: readonly StoredPart[]): string | Uint8Array<ArrayBuffer> {
  if (parts.length === 0) return json;
  const pieces: Uint8Array[] = [];
  let from = 0;
  let length = 0;
  for (const part of parts) {
    const at = json.indexOf(PLACEHOLDER_JSON, from);
    if (at < 0) throw new Error('a stored part has no place in the serialized answer');
    const head = Buffer.from(json.slice(from, at));
    pieces.push(head, ...part.json);
    length += head.length + storedLength(part);
    from = at + PLACEHOLDER_JSON.length;
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
 * texts and pages it was written with; bounded in bytes. REST and tRPC share it.
 */
export function createStoredAnswers(maxBytes: number) {
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
      const bytes = writeStored(json, parts) as Uint8Array<ArrayBuffer>;
      // The stored texts are held too (shared with the transcript cache while they live there): counted once more.
      const held = parts.reduce((n, p) => n + p.source.length, 0);
      answers.set(json, { parts, bytes }, 2 * json.length + bytes.length + held, ANSWER_TTL_MS);
      return bytes;
    },
    stats: () => answers.stats(),
  };
}
export type StoredAnswers = ReturnType<typeof createStoredAnswers>;
