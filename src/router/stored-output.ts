// The router's half of stored answers (src/domain/stored-json.ts): a procedure whose meta says `stored` has its
// output step replaced (tRPC's `.output()` validation), once, for every surface and every in-process caller. The
// rest of the answer is validated as usual, the part's key as an empty array (its values were validated when
// stored). When a bridge writes the request's answer (src/bridges/stored-answers/step.ts opened a list for it), the
// key holds a placeholder naming the part's place in that list and the answer keeps the part, for the writer;
// otherwise (a streamed batch, a file route, a caller in the process) the part is parsed into place: plain values.
import { TRPCError, type AnyRouter } from '@trpc/server';
import type { z } from 'zod';
import { readStored, STORED, storedPartOf, withValueAt, type Stored, type StoredPart } from '../domain/stored-json.ts';

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

function validated(schema: z.ZodType, out: object, value: unknown): unknown {
  const part = storedPartOf(value);
  if (!part) return schema.parse(value);
  const placeholder = placeStoredPart(out, part);
  if (placeholder === undefined) return schema.parse(readStored(value as Stored<object, never>));
  const answer = schema.parse(withValueAt(value as object, part.path, [])) as Record<PropertyKey, unknown>;
  // The validated answer is a new object throughout: the placeholder is set in place.
  let at = answer;
  for (const k of part.path.slice(0, -1)) at = at[k] as Record<PropertyKey, unknown>;
  at[part.path[part.path.length - 1]!] = placeholder;
  answer[STORED] = part;
  return answer;
}

/** The output step of a stored procedure, in place of tRPC's own (same failure: an internal output error). */
function storedOutputStep(schema: z.ZodType) {
  const step = async ({
    ctx,
    next,
  }: {
    ctx: { out: object };
    next: () => Promise<{ ok: boolean; data?: unknown }>;
  }) => {
    const result = await next();
    if (!result.ok) return result;
    try {
      return { ...result, data: validated(schema, ctx.out, result.data) };
    } catch (cause) {
      throw new TRPCError({ message: 'Output validation failed', code: 'INTERNAL_SERVER_ERROR', cause });
    }
  };
  return Object.assign(step, { _type: 'output', stored: true });
}

/** Replaces the output step of each procedure that opts in (`meta.stored`); a router already seen is left as it is. */
export function withStoredAnswers<R extends AnyRouter>(router: R): R {
  type Def = { meta?: { stored?: unknown }; output?: z.ZodType; middlewares: { _type?: string; stored?: boolean }[] };
  for (const procedure of Object.values(router._def.procedures as Record<string, { _def: Def }>)) {
    const def = procedure._def;
    if (!def.meta?.stored || !def.output) continue;
    const at = def.middlewares.findIndex((m) => m._type === 'output');
    if (at >= 0 && !def.middlewares[at]!.stored) def.middlewares[at] = storedOutputStep(def.output) as never;
  }
  return router;
}

/** An answer with one of its arrays as a stored part, for each member of a union. */
type WithStoredPart<T> = T extends object
  ? { [K in keyof T & string]: T[K] extends readonly unknown[] ? Stored<T, K> : never }[keyof T & string]
  : never;

/**
 * The output schema typed for the answers a stored procedure returns (the schema itself: documents and MCP tool
 * schemas are its own). `Answer` is the domain's answer type when its part is nested.
 */
export const storedOutput = <S extends z.ZodType, Answer = WithStoredPart<z.input<S>>>(schema: S) =>
  schema as unknown as z.ZodType<z.output<S>, z.input<S> | Answer>;
