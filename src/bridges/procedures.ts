import type { AnyProcedure, AnyRouter } from '@trpc/server';
import type { Meta } from '../router/trpc.ts';

export interface ProcedureEntry {
  path: string;
  procedure: AnyProcedure;
  meta: Meta;
}

/** Every procedure of a router, flattened to dotted paths. */
export function listProcedures(router: AnyRouter): ProcedureEntry[] {
  const record = router._def.procedures as Record<string, AnyProcedure>;
  return Object.entries(record).map(([path, procedure]) => ({
    path,
    procedure,
    meta: (procedure._def.meta ?? {}) as Meta,
  }));
}

/** Calls a procedure by dotted path through a caller, so every middleware runs. */
export function callByPath(caller: unknown, path: string, input: unknown): Promise<unknown> {
  type Node = Record<string, unknown> & ((input: unknown) => Promise<unknown>);
  const fn = path.split('.').reduce((acc, key) => acc[key] as Node, caller as Node);
  return fn(input);
}
