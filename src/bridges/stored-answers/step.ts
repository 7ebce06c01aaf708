// Stored answers (src/domain/stored-json.ts) in one step, registered once in front of REST, tRPC and MCP: for a
// request one of the surfaces takes (envelopes.ts), it opens the list the procedures' output steps place their parts
// in (output-step.ts, set on the router here), answers a plain stored read itself when the surface has one, and otherwise lets the
// surface answer, then writes the parts' stored bytes where the answer holds their placeholders (write.ts). A request
// no row takes, or whose answer cannot be written, gets its parts as values.
//
// A plain read of a stored answer (a page of a stored transcript) answered before the framework takes the
// procedure's own input schema, the same key check and count (authenticateRequest), the procedure's own stored read
// (`meta.stored`, the domain rule the procedure itself follows first) and its output step. Whatever is not such a
// read goes on to the procedure; the caller authenticated here travels in `ctx.auth`, so nothing is counted twice.
// test/transcripts/stored-pages-equivalence.test.ts holds both paths to the same status, headers and bytes.
import type { Context as HonoContext, MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import { openStoredParts, readStored, type StoredPart } from '../../domain/stored-json.ts';
import { authenticateRequest, spendCall } from '../../router/authenticate-request.ts';
import type { Context } from '../../router/context.ts';
import type { AppRouter } from '../../router/index.ts';
import { sendsApiKey } from '../../router/session-auth.ts';
import type { Meta } from '../../router/trpc.ts';
import { responseText } from '../json-response.ts';
import type { ToolCallHooks } from '../mcp/endpoint.ts';
import { listProcedures } from '../procedures.ts';
import { createStoredToolTexts, ENVELOPES, type Envelope } from './envelopes.ts';
import { useStoredOutputSteps } from './output-step.ts';
import { createWrittenAnswers, writeStored } from './write.ts';

interface StoredRead {
  path: string;
  read: Exclude<NonNullable<Meta['stored']>, true>;
  input: z.ZodType;
  /** The procedure's output step (the stored one, output-step.ts), run on the read's answer. */
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
function createStoredReads(router: AppRouter) {
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

/** The context a surface runs a request with: the same object for the step and the surface (auth travels in it). */
type ContextOf = (c: HonoContext, surface: Context['surface']) => Context;

/**
 * The step, the plain reads it answers early (`early: false` leaves every call to the frameworks; the equivalence test
 * compares both), and written answers kept within `cacheBytes`.
 */
export function createStoredAnswers(
  router: AppRouter,
  contextOf: ContextOf,
  options: { early: boolean; cacheBytes: number },
) {
  useStoredOutputSteps(router);
  const reads = options.early ? createStoredReads(router) : undefined;
  const written = createWrittenAnswers(options.cacheBytes);
  const texts = createStoredToolTexts(options.cacheBytes);

  /** The surface's answer with its stored parts written; a body with no placeholder is sent as it is. */
  async function write(c: HonoContext, envelope: Envelope, parts: StoredPart[]) {
    const res = c.res;
    const text = await responseText(res);
    const body = envelope.keeps ? written.write(text, parts) : writeStored(text, parts);
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    // Hono copies a replaced answer's headers into the new one, its body as a stream: the answer is set afresh.
    c.res = undefined;
    c.res = new Response(body, { status: res.status, headers });
  }

  const step: MiddlewareHandler = async (c, next) => {
    const envelope = ENVELOPES.find((e) => e.takes(c.req.path));
    const url = envelope && new URL(c.req.url);
    if (!envelope || !url || !envelope.writes(c.req.raw, url)) return next();
    const ctx = contextOf(c, envelope.surface);
    const parts = openStoredParts(ctx.out);
    const read = reads && (await envelope.read?.(c.req.raw, url, reads));
    const answer = read && (await read.call(ctx));
    if (answer && envelope.answer) {
      const { json, status, headers } = envelope.answer(ctx, answer);
      return new Response(envelope.keeps ? written.write(json, parts) : writeStored(json, parts), { status, headers });
    }
    await next();
    if (parts.length > 0) await write(c, envelope, parts);
  };
  /** The MCP endpoint's tool calls: a plain read on its direct path, a stored page's result, values elsewhere. */
  const tools: ToolCallHooks = {
    read: (ctx, tool, args) => reads?.call(ctx, tool.entry.path, args) ?? Promise.resolve(undefined),
    result: (ctx, tool, output) => texts.result(ctx.out, tool, output),
    values: readStored,
  };
  return { step, tools };
}
