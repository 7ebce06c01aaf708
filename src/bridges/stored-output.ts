// The one output step for answers that carry a stored part (src/domain/stored-json.ts): each surface serializes its
// answer as it always does, the part's key holding a placeholder (src/router/stored-output.ts), and asks here for the
// bytes to send, the part's stored text written in its place. Nothing is parsed, validated or serialized again.
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
