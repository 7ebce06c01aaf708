// A large part of an answer (a transcript's segments) kept as the JSON text it was stored as, validated once then.
// An answer carrying one (`withStoredPart`) is a value of its full type: the field at the part's path reads the text
// parsed, once, on first use (what a reader in the process, a file rendering or a schema parse sees), and the part
// itself travels under the STORED symbol. Transcript code makes such answers in src/domain/transcripts/stored-segments.ts.
// A stored procedure's output step (src/bridges/stored-answers/output-step.ts) puts a placeholder in the part's place,
// never reading the field, and the part in its request's list; the bridges' one step (step.ts beside it) writes the
// bytes where the serialized answer holds the placeholder.

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

/**
 * `answer` carrying `part`: the field at the part's path (absent from `answer`) is its stored text, parsed on first
 * read (`values`, when the caller has the page's values already), and the part is under STORED. Copied along the
 * path, never changed in place.
 */
export function withStoredPart<T extends object>(answer: object, part: StoredPart, values?: () => unknown): T {
  let parsed: { v: unknown } | undefined;
  const read = values ?? (() => (parsed ??= { v: parseStored(part) }).v);
  const out = withGetterAt(answer, part.path, read) as Record<PropertyKey, unknown>;
  out[STORED] = part; // set, not spread: a spread would read the field
  return out as T;
}

/**
 * How the object holding a stored field reads its value: a slot no copy, key list or comparison sees, so that the
 * field's getter is one function for every answer (a getter made per answer gives each its own shape: several times
 * slower to make, copy and validate).
 */
const READ = Symbol('stored value');
function storedValue(this: { [READ]: () => unknown }) {
  return this[READ]();
}
const FIELD: PropertyDescriptor = { get: storedValue, enumerable: true, configurable: true };

function withGetterAt(value: object, path: readonly string[], read: () => unknown): object {
  const [first, ...more] = path;
  const copy: Record<string, unknown> = { ...value };
  if (more.length > 0) copy[first!] = withGetterAt((copy[first!] ?? {}) as object, more, read);
  else Object.defineProperty(Object.defineProperty(copy, READ, { value: read }), first!, FIELD);
  return copy;
}

export const storedPartOf = (answer: unknown): StoredPart | undefined =>
  answer !== null && typeof answer === 'object' ? (answer as { [STORED]?: StoredPart })[STORED] : undefined;

/**
 * The part a domain answer carries while its field is still the stored one: a copy whose field was set anew (or read
 * into place by a spread) answers its own values.
 */
export function carriedPart(answer: unknown): StoredPart | undefined {
  const part = storedPartOf(answer);
  if (!part) return undefined;
  let holder = answer as Record<string, unknown> | undefined;
  for (const k of part.path.slice(0, -1)) holder = holder?.[k] as Record<string, unknown> | undefined;
  const field = holder && Object.getOwnPropertyDescriptor(holder, part.path[part.path.length - 1]!);
  return field?.get === storedValue ? part : undefined;
}

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

/**
 * A validated answer (its part's place holding a placeholder) with the part parsed into place: plain values, for a
 * surface that reads them (an MCP batch, a task, a resource read).
 */
export function readStored(answer: unknown): unknown {
  if (!storedPartOf(answer)) return answer;
  const { [STORED]: part, ...rest } = answer as Record<PropertyKey, unknown> & { [STORED]: StoredPart };
  return withValueAt(rest, part.path, parseStored(part));
}

/**
 * `value` with `v` at `path`: copied along the path, never changed in place, the value it had there never read (a
 * stored part's field parses its text when read).
 */
export function withValueAt(value: object, path: readonly string[], v: unknown): Record<PropertyKey, unknown> {
  const [first, ...more] = path;
  const o = value as Record<string, unknown>;
  const copy: Record<PropertyKey, unknown> = {};
  for (const k of Object.keys(o)) if (k !== first) copy[k] = o[k];
  copy[first!] = more.length === 0 ? v : withValueAt((o[first!] ?? {}) as object, more, v);
  return copy;
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
