// A large part of an answer (a transcript's segments) kept as the JSON text it was stored as, validated once then.
// Domain code makes such an answer here (`storedPage`, `storedArray`, `withStoredPart`) and reads its values here
// (`readStored`); nothing else of it is the domain's. The answer carries the part as one typed handle under the
// STORED symbol, which neither the output schema nor JSON.stringify sees. A stored procedure's output step
// (src/router/trpc.ts) puts a placeholder in the part's place and the part in its request's list; the bridges' one
// step (src/bridges/stored-answers/step.ts) writes the bytes where the serialized answer holds the placeholder.

export const STORED = Symbol('stored part');

/** A stored JSON array, or a page of one: its text as UTF-8 pieces written one after the other. */
export interface StoredPart {
  /** Where in the answer the value goes: `['segments']`, or `['translation', 'segments']`. */
  readonly path: readonly string[];
  /**
   * Whether the same answer comes again (a stored transcript's page, asked for again and again), so that a rendering
   * of it is worth keeping; false when every answer is new (it names a job of its own).
   */
  readonly repeats: boolean;
  /** The value's JSON text: `[`, the page's items as stored, `]` (never copied, never parsed). */
  readonly json: readonly Uint8Array[];
  /** The whole stored text this page is cut from: the same object for as long as it is cached. */
  readonly source: Uint8Array;
  /** Where the page starts and ends in the stored array (items), for a rendering kept per page. */
  readonly from: number;
  readonly to: number;
}

/** An answer whose `K` is a stored part: the value is not in the object, only its handle. */
export type Stored<T, K extends keyof T & string> = Omit<T, K> & { readonly [STORED]: StoredPart };

/** `answer` carrying `part`: the value at the part's path is its stored text. */
export const withStoredPart = <T extends object>(answer: T, part: StoredPart) => ({ ...answer, [STORED]: part });

/** An answer type that may carry a stored part (its value absent from the object then). */
export type MayCarryStored = { readonly [STORED]?: StoredPart };

export const storedPartOf = (answer: unknown): StoredPart | undefined =>
  answer !== null && typeof answer === 'object' ? (answer as { [STORED]?: StoredPart })[STORED] : undefined;

const OPEN = Uint8Array.of(0x5b); // [
const CLOSE = Uint8Array.of(0x5d); // ]
const fromUtf8 = new TextDecoder();

/** The whole text's length: the sum of its pieces. */
export const storedLength = (part: StoredPart) => part.json.reduce((n, b) => n + b.length, 0);

/** The part's value, parsed (off the hot path: renderings other than JSON, and readers inside the process). */
export function parseStored<V>(part: StoredPart): V {
  if (part.json.length === 1) return JSON.parse(fromUtf8.decode(part.json[0])) as V;
  const bytes = new Uint8Array(storedLength(part));
  let at = 0;
  for (const b of part.json) {
    bytes.set(b, at);
    at += b.length;
  }
  return JSON.parse(fromUtf8.decode(bytes)) as V;
}

/** The answer with its stored part parsed into place: a plain value for code that reads it (as it is without one). */
export function readStored<T, K extends keyof T & string>(answer: Stored<T, K> | T): T {
  if (!storedPartOf(answer)) return answer as T;
  const { [STORED]: part, ...rest } = answer as Stored<T, K>;
  return withValueAt(rest, part.path, parseStored(part)) as T;
}

/** `value` with `v` at `path`: copied along the path, never changed in place. */
export function withValueAt(value: object, path: readonly string[], v: unknown): Record<PropertyKey, unknown> {
  const [first, ...more] = path;
  const o = value as Record<PropertyKey, unknown>;
  return { ...o, [first!]: more.length === 0 ? v : withValueAt((o[first!] ?? {}) as object, more, v) };
}

/**
 * Offsets of a stored JSON array's items: item i is `json[bounds[2i] .. bounds[2i + 1])`. Found by following strings
 * and nesting, byte by byte, without building any value; computed once per cached text.
 */
export function arrayItemBounds(json: Uint8Array): Uint32Array {
  const out: number[] = [];
  let depth = 0;
  let inString = false;
  let start = -1;
  for (let i = 0; i < json.length; i++) {
    const c = json[i]!;
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next byte is escaped
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) {
      inString = true;
      if (depth === 1 && start < 0) start = i;
    } else if (c === 0x7b || c === 0x5b) {
      if (depth === 1 && start < 0) start = i;
      depth++;
    } else if (c === 0x7d || c === 0x5d) {
      if (depth === 1 && start >= 0) {
        out.push(start, i); // a scalar item that ends the array
        start = -1;
      }
      depth--;
      if (depth === 1 && start >= 0) {
        out.push(start, i + 1);
        start = -1;
      }
    } else if (depth === 1 && c !== 0x2c && c > 0x20 && start < 0) {
      start = i; // a number, true, false or null item
    } else if (depth === 1 && start >= 0 && (c === 0x2c || c <= 0x20)) {
      out.push(start, i);
      start = -1;
    }
  }
  return Uint32Array.from(out);
}

/** Items `from`..`to` (exclusive) of a stored array, as a part of an answer at `path`. */
export function storedPage(
  path: readonly string[],
  source: Uint8Array,
  bounds: Uint32Array,
  from: number,
  to: number,
  repeats = true,
): StoredPart {
  const count = bounds.length / 2;
  const page = { path, source, from, to, repeats };
  if (from === 0 && to === count) return { ...page, json: [source] };
  if (from >= to) return { ...page, json: [OPEN, CLOSE] };
  const items = source.subarray(bounds[2 * from]!, bounds[2 * (to - 1) + 1]!);
  return { ...page, json: [OPEN, items, CLOSE] };
}

/** A whole stored array (read from storage for one answer), as a part of an answer at `path`. */
export function storedArray(path: readonly string[], text: string, count: number, repeats: boolean): StoredPart {
  const source = new TextEncoder().encode(text);
  return { path, source, from: 0, to: count, repeats, json: [source] };
}

/**
 * What an answer holds where its stored part goes: `"\u0000stored part N"` serialized, N its place in the request's
 * list. Stored text never holds a NUL (src/db/database-errors.ts refuses it), so the placeholder cannot come from data.
 */
export const STORED_PLACEHOLDER = '\u0000stored part ';

/** The parts of one request's answers, by the `out` its contexts share (a batch's calls share it). */
const listsByRequest = new WeakMap<object, StoredPart[]>();

/** Opens the list of stored parts for the request whose contexts carry `out`: its answers will be written. */
export function openStoredParts(out: object): StoredPart[] {
  const parts: StoredPart[] = [];
  listsByRequest.set(out, parts);
  return parts;
}

/** The placeholder standing for `part` in the request's answer, or undefined when no writer follows (values then). */
export function placeStoredPart(out: object, part: StoredPart): string | undefined {
  const parts = listsByRequest.get(out);
  if (!parts) return undefined;
  parts.push(part);
  return `${STORED_PLACEHOLDER}${parts.length - 1}`;
}
