import { initTRPC, TRPCError } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { z } from 'zod';
import { isServiceError, ServiceError, type ErrorCode } from '../domain/errors.ts';
import { redactKeys } from '../domain/keys/api-key.ts';
import { ownCall, type AuthedContext, type Context } from './context.ts';
import { isDatabaseDown, isUnstorableText } from '../../db/database-errors.ts';
import { ERROR_TABLE } from './error-table.ts';
import { authenticateRequest, rateLimited, spendCall } from './authenticate-request.ts';
import type { McpLink, McpResource, McpTask } from './mcp-projection.ts';

interface McpMeta {
  /** The MCP tool name (snake_case, the spec's). */
  name: string;
  description: string;
  readOnly?: boolean;
  /** Whether calling twice does the same thing (cached results). */
  idempotent?: boolean;
  /** Reaches outside the service (YouTube, an LLM). */
  openWorld?: boolean;
  /** A one-line summary put before the JSON in the text content, for models that read text. */
  // biome-ignore lint/suspicious/noExplicitAny: each procedure's own output type; meta is shared by all of them
  summarize?: (output: any) => string;
  /**
   * The whole text content, written for a model to read and cite, instead of the summary and the JSON dump
   * (structuredContent still carries the full output).
   */
  // biome-ignore lint/suspicious/noExplicitAny: each procedure's own output type; meta is shared by all of them
  text?: (output: any) => string;
  /** The tool's answer is shown in the Subtext viewer, the MCP App (`_meta.ui.resourceUri`), by hosts that render apps. */
  app?: boolean;
  /** Answer as an image content block instead of JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: each procedure's own output type; meta is shared by all of them
  image?: (output: any) => { base64: string; mimeType: string; caption: string };
  /** The resources a successful output made or names, as `resource_link`s of its result (and the account's list). */
  // biome-ignore lint/suspicious/noExplicitAny: each procedure's own output type; meta is shared by all of them
  links?: (output: any) => McpLink[];
  /** A `subtext://` resource template read through this procedure (src/router/mcp-resources/). */
  resource?: McpResource;
  /** How the Tasks extension sees this tool's answers (src/router/mcp-tasks.ts). */
  task?: McpTask;
}

/** `errors`: the codes this operation can answer beyond the common ones (documented in OpenAPI). */
/** `acceptedAsJob`: may answer 202 with a job to poll (documented in OpenAPI). */
/** `accepted`: always answers 202 Accepted, having created work that goes on in the background (batches). */
/**
 * `stored`: the answer may carry stored segments, written as the bytes stored (src/bridges/stored-answers/). A
 * function is besides the answer to a plain read of a stored answer, free, from the same domain rule the procedure
 * follows (null when the procedure must run): such calls are answered before tRPC, once the caller is authenticated
 * and counted as the procedure would.
 */
export type Meta = OpenApiMeta & {
  mcp?: McpMeta;
  errors?: ErrorCode[];
  acceptedAsJob?: boolean;
  accepted?: boolean;
  // biome-ignore lint/suspicious/noExplicitAny: each procedure's own input type; meta is shared by all of them
  stored?: true | ((ctx: AuthedContext, input: any) => Promise<object | null>);
};

/** The spec code a failure carries, whatever threw it. */
export function codeOf(error: TRPCError): { code: ErrorCode; message: string; retryAfter?: number } {
  const cause = error.cause;
  if (isServiceError(cause)) return { code: cause.code, message: cause.message, retryAfter: cause.retryAfter };
  if (cause instanceof z.ZodError) return { code: 'INVALID_REQUEST', message: describeZodError(cause) };
  switch (error.code) {
    case 'BAD_REQUEST':
    case 'PARSE_ERROR':
      return { code: 'INVALID_REQUEST', message: error.message };
    case 'NOT_FOUND':
      return { code: 'NOT_FOUND', message: error.message };
    case 'METHOD_NOT_SUPPORTED':
      return { code: 'METHOD_NOT_ALLOWED', message: error.message };
    case 'UNSUPPORTED_MEDIA_TYPE':
      return { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'POST bodies must be JSON (Content-Type: application/json)' };
    case 'PAYLOAD_TOO_LARGE':
      return { code: 'PAYLOAD_TOO_LARGE', message: error.message };
    default:
      return { code: 'INTERNAL_ERROR', message: 'Internal error' };
  }
}

function describeZodError(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
}

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    errorFormatter({ shape, error, ctx }) {
      const { code, message } = codeOf(error);
      // tRPC formats with the HTTP request's context; a batched call's error carries its own id (callIdentity).
      const requestId = (error as CallError).callRequestId ?? ctx?.requestId;
      const safe =
        code === 'INTERNAL_ERROR' ? `Internal error (request ${requestId ?? 'unknown'})` : redactKeys(message);
      // tRPC clients read `data.code`; REST bodies are rewritten to { error: { code, message } } by the bridge.
      return {
        message: safe,
        code: shape.code,
        data: { code, httpStatus: ERROR_TABLE[code].status, requestId },
      };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

export const UNSTORABLE_TEXT = 'The request contains text that cannot be processed (a NUL character or invalid UTF-8)';

/** First on every procedure: domain errors become tRPC errors with the table's code; unknown ones are logged. */
const errorMapping = t.middleware(async ({ ctx, next, path }) => {
  const result = await next();
  if (!result.ok) {
    const cause = result.error.cause;
    if (isServiceError(cause)) {
      throw new TRPCError({ code: ERROR_TABLE[cause.code].trpc, message: cause.message, cause });
    }
    if (result.error.code === 'INTERNAL_SERVER_ERROR') {
      // The caller's bytes, not an incident: answered 400 and not logged as an error.
      if (isUnstorableText(result.error.cause)) {
        throw new TRPCError({
          code: 'BAD_REQUEST',
          cause: new ServiceError('INVALID_REQUEST', UNSTORABLE_TEXT),
        });
      }
      ctx.log.error({ err: result.error.cause ?? result.error, path }, 'unhandled error');
      if (isDatabaseDown(result.error.cause)) {
        throw new TRPCError({
          code: 'SERVICE_UNAVAILABLE',
          cause: new ServiceError('SERVICE_BUSY', 'The service is briefly unavailable; retry in a few seconds', 5),
        });
      }
    }
  }
  return result;
});

type CallError = TRPCError & { callRequestId?: string };

/**
 * Outermost: each call after the first of a tRPC batch is a request of its own (ownCall); the first, like a call
 * alone, keeps the HTTP request's id, the one in `x-request-id`.
 */
const callIdentity = t.middleware(async ({ ctx, next, batchIndex }) => {
  if (!batchIndex) return next();
  const call = ownCall(ctx);
  const result = await next({ ctx: call });
  if (result.ok) return result;
  // A copy carries the id: tRPC reads a batch's body once, and a body it cannot read fails every call with one
  // error object, which must not name one call's id for all of them.
  const { code, message, cause } = result.error;
  const error: CallError = Object.assign(new TRPCError({ code, message, cause }), { callRequestId: call.requestId });
  return { ...result, error };
});

/** Every call's surface, procedure, answered status and latency, for /metrics. */
const requestMetrics = t.middleware(async ({ ctx, next, path }) => {
  const started = performance.now();
  const result = await next();
  const m = ctx.deps.metrics;
  if (m) {
    const status = result.ok ? (ctx.out.status ?? 200) : ERROR_TABLE[codeOf(result.error).code].status;
    m.requests.inc({ surface: ctx.surface, procedure: path, status });
    m.requestSeconds.observe({ surface: ctx.surface, procedure: path }, (performance.now() - started) / 1000);
  }
  return result;
});

export const publicProcedure = t.procedure.use(callIdentity).use(requestMetrics).use(errorMapping);

/**
 * Needs an API key or a website session (authenticateRequest: one statement finds the caller and counts the call);
 * MCP requests arrive authenticated and counted already, and each procedure call spends one admitted call.
 */
export const keyedProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const auth = ctx.auth ?? (await authenticateRequest(ctx, 1));
  const state = ctx.auth ? spendCall(ctx.auth) : auth.rateLimit!;
  ctx.out.rateLimit = state;
  if (!state.allowed) throw rateLimited(state);
  // One request for the lookup admission: lookups it was admitted for as a payer count as unpaid if it pays nothing.
  return ctx.deps.lookupAdmission.forRequest(auth.caller.accountId, ctx.requestId, () =>
    next({ ctx: { ...ctx, caller: auth.caller } as AuthedContext }),
  );
});
