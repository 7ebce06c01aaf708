// The output step of a stored procedure (`meta.stored`), in place of tRPC's `.output()` validation, set once on the
// router the bridges serve (createStoredAnswers, step.ts), for every surface and every caller in the process. The
// rest of the answer is validated as usual, the part's field as an empty array (its values were validated when
// stored; the field itself is never read, which would parse them). When a bridge writes the request's answer (its
// step opened a list for it), the field holds a placeholder naming the part's place in that list and the answer
// keeps the part; otherwise (a streamed batch, a file route, a caller in the process) the schema reads the field:
// plain values.
import { TRPCError, type AnyRouter } from '@trpc/server';
import type { z } from 'zod';
import { carriedPart, placeStoredPart, STORED, withValueAt } from '../../domain/stored-json.ts';

function validated(schema: z.ZodType, out: object, value: unknown): unknown {
  const part = carriedPart(value);
  const placeholder = part && placeStoredPart(out, part);
  if (!part || placeholder === undefined) return schema.parse(value);
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

/** Replaces the output step of each procedure that opts in (`meta.stored`); one replaced already is left as it is. */
export function useStoredOutputSteps(router: AnyRouter): void {
  type Def = { meta?: { stored?: unknown }; output?: z.ZodType; middlewares: { _type?: string; stored?: boolean }[] };
  for (const procedure of Object.values(router._def.procedures as Record<string, { _def: Def }>)) {
    const def = procedure._def;
    if (!def.meta?.stored || !def.output) continue;
    const at = def.middlewares.findIndex((m) => m._type === 'output');
    if (at >= 0 && !def.middlewares[at]!.stored) def.middlewares[at] = storedOutputStep(def.output) as never;
  }
}
