import type { z } from 'zod';
import { STORED, storedPartOf, withValueAt, type Stored } from '../domain/stored-json.ts';

/** An answer with one of its arrays as a stored part, for each member of a union. */
type WithStoredPart<T> = T extends object
  ? { [K in keyof T & string]: T[K] extends readonly unknown[] ? Stored<T, K> : never }[keyof T & string]
  : never;

/**
 * What an answer holds where its stored part goes once through the output schema: the bridges' output step
 * (src/bridges/stored-output.ts) finds it in the serialized answer and writes the part's bytes in its place. Stored
 * text never holds a NUL (src/db/database-errors.ts refuses it), so the serialized placeholder cannot come from data.
 */
export const STORED_PLACEHOLDER = '\u0000stored part';

/**
 * A procedure's output schema for answers that may carry a stored part (src/domain/stored-json.ts): the rest of the
 * answer is validated as usual, the part's key as an empty array (its values were validated when stored), and the
 * answer comes out carrying the part, for the output step. Documents and MCP tool schemas are the schema's own.
 * `Answer` is the domain's answer type when its part is nested (the default covers a top-level array).
 */
export function storedOutput<S extends z.ZodType, Answer = WithStoredPart<z.input<S>>>(
  schema: S,
): z.ZodType<z.output<S>, z.input<S> | Answer> {
  const copy = schema.clone();
  const parse = copy.parse.bind(copy);
  const withPart = (value: unknown, params?: Parameters<typeof parse>[1]): z.output<S> => {
    const part = storedPartOf(value);
    if (!part) return parse(value, params);
    const out = parse(withValueAt(value as object, part.path, []), params) as Record<PropertyKey, unknown>;
    // The validated answer is a new object throughout: the placeholder is set in place.
    let at = out;
    for (const k of part.path.slice(0, -1)) at = at[k] as Record<PropertyKey, unknown>;
    at[part.path[part.path.length - 1]!] = STORED_PLACEHOLDER;
    out[STORED] = part;
    return out as z.output<S>;
  };
  // tRPC validates outputs with `parse` (or `parseAsync`): both carry the part.
  copy.parse = withPart;
  copy.parseAsync = async (value, params) => withPart(value, params);
  return copy as unknown as z.ZodType<z.output<S>, z.input<S> | Answer>;
}
