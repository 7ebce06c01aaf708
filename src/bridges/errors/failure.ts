import { getTRPCErrorFromUnknown } from '@trpc/server';
import type { ErrorCode } from '../../domain/errors.ts';
import type { RateLimitState } from '../../domain/rate-limit/rate-limit.ts';
import { isDatabaseDown, isUnstorableText } from '../../../db/database-errors.ts';
import { ERROR_TABLE } from '../../router/error-table.ts';
import { sendsApiKey } from '../../router/session-auth.ts';
import { codeOf, UNSTORABLE_TEXT } from '../../router/trpc.ts';
import { rateLimitHeaders } from '../response-headers.ts';
import { wwwAuthenticate } from './www-authenticate.ts';

/** A failure as every surface renders it: the spec's code and message, the table's status, when to retry. */
export interface Failure {
  code: ErrorCode;
  message: string;
  status: number;
  /** Seconds; set on every 429 and 503 (the error's own value, else the table's). */
  retryAfter?: number;
}

export function failure(code: ErrorCode, message: string, retryAfter?: number): Failure {
  const entry = ERROR_TABLE[code];
  return { code, message, status: entry.status, retryAfter: retryAfter ?? entry.retryAfter };
}

/** Whatever a procedure call or a route threw, as a failure; internals never reach the client. */
export function failureOf(err: unknown, requestId: string): Failure {
  if (isDatabaseDown(err)) return failure('SERVICE_BUSY', 'The service is briefly unavailable; retry in a few seconds');
  // Routes outside the procedures (OAuth, files) reach PostgreSQL with the caller's text too.
  if (isUnstorableText(err)) return failure('INVALID_REQUEST', UNSTORABLE_TEXT);
  const { code, message, retryAfter } = codeOf(getTRPCErrorFromUnknown(err));
  return failure(code, code === 'INTERNAL_ERROR' ? internalMessage(requestId) : message, retryAfter);
}

export const internalMessage = (requestId: string) => `Internal error (request ${requestId})`;

/** What the request told us, for the headers of its answer. */
export interface AnswerContext {
  requestId: string;
  requestHeaders: Headers;
  rateLimit?: RateLimitState;
  /** Extra auth-params for this surface's Bearer challenge (for example `resource_metadata` on /mcp). */
  challenge?: Record<string, string>;
}

/**
 * The headers every surface sends with a failure: the rate-limit fields, Retry-After on 429 and 503,
 * the Bearer challenge on 401, and the request id.
 */
export function failureHeaders(f: Failure, a: AnswerContext): Headers {
  const headers = new Headers(rateLimitHeaders(a.rateLimit));
  if (f.status === 429 || f.status === 503) {
    const seconds =
      f.retryAfter ??
      (f.code === 'RATE_LIMITED' ? a.rateLimit?.reset : undefined) ??
      ERROR_TABLE.SERVICE_BUSY.retryAfter!;
    headers.set('retry-after', String(Math.max(1, Math.ceil(seconds))));
  }
  if (f.status === 401)
    headers.set('www-authenticate', wwwAuthenticate({ keySent: sendsApiKey(a.requestHeaders), params: a.challenge }));
  headers.set('x-request-id', a.requestId);
  return headers;
}
