import type { AnyRouter } from '@trpc/server';
import { listProcedures } from './procedures.ts';

type Def = { type: string; coerce?: boolean; [k: string]: unknown };
type Schema = { _zod?: { def: Def } } | undefined;

const defOf = (s: Schema): Def | undefined => s?._zod?.def;

/** Wrappers whose inner schema decides how a query value is read. */
function unwrap(s: Schema): Schema {
  let cur = s;
  for (let i = 0; i < 20; i++) {
    const def = defOf(cur);
    if (!def) return cur;
    if (['optional', 'nullable', 'default', 'prefault', 'readonly', 'nonoptional', 'catch'].includes(def.type))
      cur = def.innerType as Schema;
    else if (def.type === 'pipe') cur = def.in as Schema;
    else if (def.type === 'lazy') cur = (def.getter as () => Schema)();
    else return cur;
  }
  return cur;
}

const PLAIN_DECIMAL = /^-?\d{1,16}(\.\d{1,16})?$/;
const COERCIBLE = new Set(['number', 'boolean', 'bigint', 'date']);

/**
 * One query value as REST reads it: plain decimal digits become a number and `true`/`false` a boolean for the
 * fields that want them; anything else (`1e1`, `0x10`, `0b11`, ` 5`, `yes`) stays a string and fails validation
 * with a message naming the field. Number() would have taken all of those.
 */
function readValue(field: Schema, raw: string): unknown {
  const type = defOf(unwrap(field))?.type;
  if (type === 'number' && PLAIN_DECIMAL.test(raw)) return Number(raw);
  if (type === 'boolean' && (raw === 'true' || raw === 'false')) return raw === 'true';
  return raw;
}

/**
 * The query string of a GET, typed by the procedure's input schema, in the shape trpc-to-openapi reads from
 * `req.query` (a list per key; a one-element list becomes the value).
 */
export function typedQuery(input: Schema, params: URLSearchParams): Record<string, unknown[]> {
  const shape = (defOf(unwrap(input))?.shape ?? {}) as Record<string, Schema>;
  // Keys are the caller's: `__proto__`, `constructor` or `toString` must name nothing inherited (they answered 500).
  const out: Record<string, unknown[]> = Object.create(null);
  for (const [key, raw] of params) {
    const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
    const element = defOf(unwrap(field))?.type === 'array' ? (defOf(unwrap(field))!.element as Schema) : field;
    (out[key] ??= []).push(readValue(element, raw));
  }
  return out;
}

/**
 * trpc-to-openapi turns coercion on by setting `def.coerce = true` on the router's own input schemas the first
 * time a REST request reaches a procedure, so from then on tRPC and MCP accepted "5" for a number and "" for a
 * boolean. Every such flag in every procedure's input is pinned to its current value here (writes are ignored);
 * REST gets its own strict reading of query strings from `typedQuery`. Schemas built with z.coerce keep theirs.
 */
export function pinCoercion(router: AnyRouter): void {
  const seen = new Set<Def>();
  const visit = (s: Schema) => {
    const def = defOf(s);
    if (!def || seen.has(def)) return;
    seen.add(def);
    if (COERCIBLE.has(def.type)) {
      if (Object.getOwnPropertyDescriptor(def, 'coerce')?.get) return; // pinned by an earlier app in this process
      const value = def.coerce === true;
      Object.defineProperty(def, 'coerce', { get: () => value, set: () => {}, enumerable: true, configurable: false });
      return;
    }
    for (const key of ['innerType', 'in', 'out', 'element', 'left', 'right', 'valueType', 'keyType'])
      visit(def[key] as Schema);
    if (def.type === 'lazy') visit((def.getter as () => Schema)());
    for (const option of (def.options as Schema[] | undefined) ?? []) visit(option);
    for (const item of (def.items as Schema[] | undefined) ?? []) visit(item);
    for (const field of Object.values((def.shape as Record<string, Schema> | undefined) ?? {})) visit(field);
  };
  for (const { procedure } of listProcedures(router)) {
    for (const input of (procedure._def as unknown as { inputs: Schema[] }).inputs) visit(input);
  }
}
