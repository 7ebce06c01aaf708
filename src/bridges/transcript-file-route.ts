import { FILE_FORMATS, FILE_TYPES, type FileFormat } from '../domain/transcripts/formats.ts';
import { ServiceError } from '../domain/errors.ts';
import { authenticateRequest } from '../router/authenticate-request.ts';
import type { Context } from '../router/context.ts';
import { appRouter } from '../router/index.ts';
import { createCallerFactory } from '../router/trpc.ts';
import { failureOf } from './errors/failure.ts';
import { restErrorResponse } from './errors/rest-error.ts';
import { rateLimitHeaders } from './response-headers.ts';

const createCaller = createCallerFactory(appRouter);

export const DEFAULT_FILE_FORMAT: FileFormat = 'srt';

const isFileFormat = (f: string): f is FileFormat => (FILE_FORMATS as readonly string[]).includes(f);

/**
 * The format: one of the file formats (json is an answer, not a file). A wrong one is refused here, after the key is
 * checked and counted as the procedure would (so a bad key is still a 401), and the procedure then does not count
 * the request again.
 */
async function fileFormatOf(ctx: Context, query: Record<string, string>): Promise<FileFormat> {
  const format = query.format || DEFAULT_FILE_FORMAT;
  if (isFileFormat(format)) return format;
  ctx.auth ??= await authenticateRequest(ctx, 1);
  throw new ServiceError(
    'INVALID_REQUEST',
    `format: must be ${FILE_FORMATS.join(', ')} (default ${DEFAULT_FILE_FORMAT})`,
  );
}

/** A boolean query parameter: true or false; anything else is left for the procedure's validation to refuse. */
const flag = (value: string | undefined) =>
  value === undefined || value === ''
    ? undefined
    : value === 'true'
      ? true
      : value === 'false'
        ? false
        : (value as never);

/**
 * GET /api/v1/videos/{videoId}/subtitles?lang=&format=text|srt|vtt answers the file itself, so `curl -OJ` works.
 * trpc-to-openapi answers only JSON, so this plain route calls the same procedure as POST /subtitles (and its MCP
 * tool): auth, rate limit, credits and errors are the procedure's.
 */
export async function serveTranscriptFile(
  ctx: Context,
  videoId: string,
  query: Record<string, string>,
): Promise<Response> {
  const headers = new Headers({ 'x-request-id': ctx.requestId });
  try {
    const format = await fileFormatOf(ctx, query);
    // The path takes a YouTube URL too (percent-encoded), like GET /videos/{videoId}.
    const ref = /[./:]/.test(videoId) ? { url: videoId } : { videoId };
    const t = await createCaller(ctx).subtitles.get({
      ...ref,
      lang: query.lang || undefined,
      // Left for the procedure's validation: the cast lets an unchecked value through to be refused there.
      mode: (query.mode || undefined) as never,
      format,
      words: flag(query.words),
      chapters: flag(query.chapters),
    });
    for (const [k, v] of rateLimitHeaders(ctx.out.rateLimit)) headers.set(k, v);
    if (t.status !== 'succeeded') {
      // Speech-to-text is running: the job to poll, as POST /subtitles answers it; the file once it is stored.
      headers.set('content-type', 'application/json');
      headers.set('location', `/api/v1/jobs/${t.job.id}`);
      return new Response(JSON.stringify(t), { status: 202, headers });
    }
    const type = FILE_TYPES[format];
    headers.set('content-type', `${type.mediaType}; charset=utf-8`);
    // videoId and lang come from the answer: an 11-character id and a BCP 47 code, nothing to escape.
    headers.set('content-disposition', `attachment; filename="${t.videoId}.${t.lang}.${type.extension}"`);
    headers.set('content-language', t.lang);
    headers.set('cache-control', 'private, max-age=3600');
    headers.set('x-credits-charged', String(t.creditsCharged));
    return new Response(t.content ?? '', { status: 200, headers });
  } catch (err) {
    return restErrorResponse(failureOf(err, ctx.requestId), {
      requestId: ctx.requestId,
      requestHeaders: ctx.headers,
      rateLimit: ctx.out.rateLimit,
    });
  }
}
