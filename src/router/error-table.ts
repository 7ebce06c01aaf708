import type { TRPC_ERROR_CODE_KEY } from '@trpc/server';
import type { ErrorCode } from '../domain/errors.ts';
import { redactKeys } from '../domain/keys/api-key.ts';

interface ErrorEntry {
  status: number;
  trpc: TRPC_ERROR_CODE_KEY;
  /** When a client sees it; rendered into the OpenAPI document; docs/api.md lists them too. */
  description: string;
  /** Seconds a client should wait, when the error itself does not say (every 429 and 503 carries Retry-After). */
  retryAfter?: number;
}

/** The one place an error code gets its HTTP status and tRPC code. */
export const ERROR_TABLE: Record<ErrorCode, ErrorEntry> = {
  INVALID_REQUEST: {
    status: 400,
    trpc: 'BAD_REQUEST',
    description: 'Parameters are missing or malformed; the message names the field.',
  },
  INVALID_API_KEY: { status: 401, trpc: 'UNAUTHORIZED', description: 'Key missing, invalid, revoked or expired.' },
  INSUFFICIENT_CREDITS: {
    status: 402,
    trpc: 'PAYMENT_REQUIRED',
    description: 'Not enough credits for the operation; nothing was done or charged.',
  },
  TRANSCRIPT_NOT_FOUND: {
    status: 404,
    trpc: 'NOT_FOUND',
    description: 'No stored transcript for the video and language; fetch subtitles first.',
  },
  NO_SUBTITLES: {
    status: 422,
    trpc: 'UNPROCESSABLE_CONTENT',
    description:
      'The video has no usable subtitles (in the requested language); the message lists the languages it has.',
  },
  RATE_LIMITED: {
    status: 429,
    trpc: 'TOO_MANY_REQUESTS',
    description: 'Too many requests for this key in the current minute; see Retry-After.',
    retryAfter: 60,
  },
  EXTRACTION_FAILED: {
    status: 502,
    trpc: 'BAD_GATEWAY',
    description:
      'YouTube could not be read (bot check, rate limit, network) after every client was tried; retrying later may work. Nothing was charged.',
  },
  SERVICE_BUSY: {
    status: 503,
    trpc: 'SERVICE_UNAVAILABLE',
    description: 'Capacity is saturated or the database is briefly unreachable; retry after Retry-After seconds.',
    retryAfter: 5,
  },
  VIDEO_NOT_FOUND: {
    status: 404,
    trpc: 'NOT_FOUND',
    description: 'The video does not exist, was removed, or is private.',
  },
  VIDEO_AGE_RESTRICTED: {
    status: 403,
    trpc: 'FORBIDDEN',
    description: 'YouTube requires a signed-in adult for this video.',
  },
  VIDEO_MEMBERS_ONLY: {
    status: 403,
    trpc: 'FORBIDDEN',
    description: 'Only the channel’s members can watch this video.',
  },
  VIDEO_PAID: {
    status: 403,
    trpc: 'FORBIDDEN',
    description: 'The video must be bought, rented or needs YouTube Premium.',
  },
  VIDEO_REGION_BLOCKED: {
    status: 403,
    trpc: 'FORBIDDEN',
    description: 'The video is not available in the region the service reaches YouTube from.',
  },
  VIDEO_LIVE: {
    status: 409,
    trpc: 'CONFLICT',
    description: 'The video is live right now; its transcript exists once the stream has ended.',
  },
  VIDEO_UPCOMING: {
    status: 409,
    trpc: 'CONFLICT',
    description: 'The video is a scheduled premiere or stream that has not started.',
  },
  VIDEO_UNPLAYABLE: {
    status: 422,
    trpc: 'UNPROCESSABLE_CONTENT',
    description: 'YouTube refuses to play the video for another reason, given in the message.',
  },
  FRAME_FAILED: {
    status: 502,
    trpc: 'BAD_GATEWAY',
    description: 'The frame could not be captured from the video stream. Nothing was charged.',
  },
  LLM_NOT_CONFIGURED: {
    status: 501,
    trpc: 'NOT_IMPLEMENTED',
    description: 'Translation needs a language model and none is configured on this server.',
  },
  LLM_FAILED: {
    status: 502,
    trpc: 'BAD_GATEWAY',
    description: 'The language model failed or answered unusably after retries. Nothing was charged.',
  },
  MEDIA_TOO_LARGE: {
    status: 422,
    trpc: 'UNPROCESSABLE_CONTENT',
    description:
      'The media is longer (STT_MAX_SECONDS) or larger (STT_MAX_BYTES) than this server transcribes. Nothing was charged.',
  },
  STT_NOT_CONFIGURED: {
    status: 501,
    trpc: 'NOT_IMPLEMENTED',
    description:
      'Speech-to-text (mode generate) needs an engine and none is available on this server (STT_BASE_URL, or the local pocketsphinx).',
  },
  JOB_NOT_FOUND: { status: 404, trpc: 'NOT_FOUND', description: 'No job with that id belongs to this account.' },
  ARTICLE_NOT_FOUND: { status: 404, trpc: 'NOT_FOUND', description: 'No article with that id.' },
  NOT_FOUND: { status: 404, trpc: 'NOT_FOUND', description: 'No such route.' },
  METHOD_NOT_ALLOWED: {
    status: 405,
    trpc: 'METHOD_NOT_SUPPORTED',
    description: 'The route exists but not with this method.',
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    trpc: 'PAYLOAD_TOO_LARGE',
    description: 'The request body is larger than the server accepts.',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    trpc: 'UNSUPPORTED_MEDIA_TYPE',
    description: 'POST bodies must be application/json.',
  },
  URI_TOO_LONG: { status: 414, trpc: 'BAD_REQUEST', description: 'The request URL is longer than 16 KiB.' },
  HEADERS_TOO_LARGE: {
    status: 431,
    trpc: 'BAD_REQUEST',
    description: 'The request line and headers together are larger than the server reads.',
  },
  UNAUTHENTICATED: {
    status: 401,
    trpc: 'UNAUTHORIZED',
    description: 'Website session missing or expired; sign in again.',
  },
  FORBIDDEN: {
    status: 403,
    trpc: 'FORBIDDEN',
    description:
      'The request was refused: a failed CSRF check, or an OAuth access token without the scope the surface needs ("api" for REST and tRPC).',
  },
  INTERNAL_ERROR: {
    status: 500,
    trpc: 'INTERNAL_SERVER_ERROR',
    description: 'An unexpected error; the message carries the request id to report.',
  },
};

/** The spec's error body. Messages may quote the caller's input: a key pasted into the wrong field is masked. */
export const errorBody = (code: ErrorCode, message: string) => ({ error: { code, message: redactKeys(message) } });

/** What a video that must be played (its captions, audio or frames) can answer when YouTube will not play it. */
export const PLAYBACK_ERRORS = [
  'VIDEO_NOT_FOUND',
  'VIDEO_AGE_RESTRICTED',
  'VIDEO_MEMBERS_ONLY',
  'VIDEO_PAID',
  'VIDEO_REGION_BLOCKED',
  'VIDEO_LIVE',
  'VIDEO_UPCOMING',
  'VIDEO_UNPLAYABLE',
] as const satisfies readonly ErrorCode[];

/** What reading a video's info or tracks can answer: the playback errors but VIDEO_LIVE (a live video has info). */
export const VIDEO_INFO_ERRORS: ErrorCode[] = [
  ...PLAYBACK_ERRORS.filter((c) => c !== 'VIDEO_LIVE'),
  'EXTRACTION_FAILED',
];
