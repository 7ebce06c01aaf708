// Stored answers (src/domain/stored-json.ts) in one step, registered once in front of REST, tRPC and MCP: for a
// request one of the surfaces takes (envelopes.ts), it opens the list the procedures' output steps place their parts
// in (src/router/stored-output.ts), answers a plain stored read itself when the surface has one (early.ts), and
// otherwise lets the surface answer, then writes the parts' stored bytes where the answer holds their placeholders
// (write.ts). A request no row takes, or whose answer cannot be written, gets its parts as values.
import type { Context as HonoContext, MiddlewareHandler } from 'hono';
import type { Context } from '../../router/context.ts';
import type { AppRouter } from '../../router/index.ts';
import { openStoredParts } from '../../router/stored-output.ts';
import type { StoredPart } from '../../domain/stored-json.ts';
import { createStoredReads } from './early.ts';
import { ENVELOPES, type Envelope } from './envelopes.ts';
import { createWrittenAnswers, writeStored } from './write.ts';

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
  const reads = options.early ? createStoredReads(router) : undefined;
  const written = createWrittenAnswers(options.cacheBytes);

  /** The surface's answer with its stored parts written; a body with no placeholder is sent as it is. */
  async function write(c: HonoContext, envelope: Envelope, parts: StoredPart[]) {
    const res = c.res;
    const text = await res.text();
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
  return { step, reads };
}
