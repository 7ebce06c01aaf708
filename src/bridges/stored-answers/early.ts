// A plain read of a stored answer (a page of a stored transcript), answered before tRPC: the procedure's own input
// schema, the same key check and count (authenticateRequest), the procedure's own stored read (`meta.stored`, the
// domain rule the procedure itself follows first), and its output step (src/router/stored-output.ts). Whatever is not such a read goes on to the procedure; the caller authenticated here
// travels in `ctx.auth`, so nothing is counted twice. test/transcripts/stored-pages-equivalence.test.ts holds both
// paths to the same status, headers and bytes.
import type { z } from 'zod';
import { authenticateRequest, spendCall } from '../../router/authenticate-request.ts';
import type { Context } from '../../router/context.ts';
import type { AppRouter } from '../../router/index.ts';
import { sendsApiKey } from '../../router/session-auth.ts';
import type { Meta } from '../../router/trpc.ts';
import { listProcedures } from '../procedures.ts';

interface StoredRead {
  path: string;
  read: Exclude<NonNullable<Meta['stored']>, true>;
  input: z.ZodType;
  /** The procedure's output step (the stored one, src/router/stored-output.ts), run on the read's answer. */
  output: (ctx: Context, answer: object) => Promise<object>;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The procedure's answer, validated by its output schema, when `raw` (its input as sent) is a stored read the caller
 * may make; undefined when the procedure must answer. A caller not authenticated yet is authenticated and counted as
 * keyedProcedure does it, and keeps that in `ctx.auth` for the procedure.
 */
async function answer(ctx: Context, r: StoredRead, raw: unknown): Promise<object | undefined> {
  const started = performance.now();
  if (!isPlainObject(raw)) return undefined;
  const input = r.input.safeParse(raw);
  if (!input.success) return undefined;
  if (!ctx.auth) {
    // A website session (cookie and CSRF token) goes the procedure's way.
    if (!sendsApiKey(ctx.headers)) return undefined;
    try {
      ctx.auth = await authenticateRequest(ctx, 1);
    } catch {
      return undefined; // refused: the procedure refuses it the same way (nothing was counted)
    }
  }
  if (ctx.auth.admitted <= 0) return undefined; // rate limited: the procedure says so
  let answer: object;
  try {
    const out = await r.read({ ...ctx, caller: ctx.auth.caller }, input.data);
    if (!out) return undefined;
    answer = await r.output(ctx, out);
  } catch {
    return undefined; // a failure (the database gone) is the procedure's to report, as it always does
  }
  ctx.out.rateLimit = spendCall(ctx.auth);
  recordStoredRead(ctx, r.path, started);
  return answer;
}

/** What requestMetrics (src/router/trpc.ts) records for a procedure call, and the stored read itself. */
function recordStoredRead(ctx: Context, path: string, started: number) {
  const m = ctx.deps.metrics;
  if (!m) return;
  m.requests.inc({ surface: ctx.surface, procedure: path, status: ctx.out.status ?? 200 });
  m.requestSeconds.observe({ surface: ctx.surface, procedure: path }, (performance.now() - started) / 1000);
  m.storedReads.inc({ surface: ctx.surface, procedure: path });
}

type OutputStep = ((opts: {
  ctx: Context;
  next: () => Promise<{ ok: true; data: unknown }>;
}) => Promise<{ ok: boolean; data?: unknown }>) & { _type?: string };

/** The procedures that declare a stored read, by dotted path and by REST route (`POST /subtitles`). */
export function createStoredReads(router: AppRouter) {
  const reads = new Map<string, StoredRead>();
  const routes = new Map<string, StoredRead>();
  for (const e of listProcedures(router)) {
    const read = e.meta.stored;
    if (typeof read !== 'function') continue;
    const def = e.procedure._def as unknown as { inputs: z.ZodType[]; middlewares: OutputStep[] };
    const step = def.middlewares.find((m) => m._type === 'output')!;
    const output = async (ctx: Context, data: object) => {
      const result = await step({ ctx, next: async () => ({ ok: true, data }) });
      return result.data as object;
    };
    const r = { path: e.path, read, input: def.inputs[0]!, output };
    reads.set(e.path, r);
    if (e.meta.openapi) routes.set(`${e.meta.openapi.method} ${e.meta.openapi.path}`, r);
  }

  return {
    /** A REST call (`method`, path below /api/v1, its JSON body) as a stored read, or undefined. */
    rest(ctx: Context, method: string, path: string, body: unknown) {
      const r = routes.get(`${method} ${path}`);
      return r ? answer(ctx, r, body) : Promise.resolve(undefined);
    },
    /** A procedure called by its dotted path (tRPC, an MCP tool) as a stored read, or undefined. */
    call(ctx: Context, path: string, input: unknown) {
      const r = reads.get(path);
      return r ? answer(ctx, r, input) : Promise.resolve(undefined);
    },
    has: (path: string) => reads.has(path),
    hasRoute: (method: string, path: string) => routes.has(`${method} ${path}`),
  };
}
export type StoredReads = ReturnType<typeof createStoredReads>;
