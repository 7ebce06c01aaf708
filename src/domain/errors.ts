// Every failure the service can answer. The status and tRPC code for each live in one table
// (src/router/error-table.ts); the domain only names the code.
export const ERROR_CODES = [
  // the spec's codes
  'INVALID_REQUEST',
  'INVALID_API_KEY',
  'INSUFFICIENT_CREDITS',
  'TRANSCRIPT_NOT_FOUND',
  'NO_SUBTITLES',
  'RATE_LIMITED',
  'EXTRACTION_FAILED',
  'SERVICE_BUSY',
  // ours, documented in the OpenAPI document and docs/api.md
  'VIDEO_NOT_FOUND',
  'VIDEO_AGE_RESTRICTED',
  'VIDEO_MEMBERS_ONLY',
  'VIDEO_PAID',
  'VIDEO_REGION_BLOCKED',
  'VIDEO_LIVE',
  'VIDEO_UPCOMING',
  'VIDEO_UNPLAYABLE',
  'FRAME_FAILED',
  'LLM_NOT_CONFIGURED',
  'LLM_FAILED',
  'STT_NOT_CONFIGURED',
  'MEDIA_TOO_LARGE',
  'JOB_NOT_FOUND',
  'ARTICLE_NOT_FOUND',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'URI_TOO_LONG',
  'HEADERS_TOO_LARGE',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'INTERNAL_ERROR',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export class ServiceError extends Error {
  readonly code: ErrorCode;
  /** Seconds after which a retry may succeed (RATE_LIMITED, SERVICE_BUSY). */
  readonly retryAfter?: number;
  /** No retry of the job can help (YouTube's host does not resolve): fail at once instead of after the backoff. */
  readonly final: boolean;
  constructor(code: ErrorCode, message: string, retryAfter?: number, opts: { final?: boolean } = {}) {
    super(message);
    this.name = 'ServiceError';
    this.code = code;
    this.retryAfter = retryAfter;
    this.final = opts.final ?? false;
  }
}

export const isServiceError = (e: unknown): e is ServiceError => e instanceof ServiceError;
