import { FILE_FORMATS, FILE_TYPES, type FileFormat } from '../domain/transcripts/formats.ts';
import type { Context } from '../router/context.ts';
import { appRouter } from '../router/index.ts';
import { createCallerFactory } from '../router/trpc.ts';
import { failureOf } from './errors/failure.ts';
import { restErrorResponse } from './errors/rest-error.ts';
import { rateLimitHeaders } from './response-headers.ts';

const createCaller = createCallerFactory(appRouter);

export const DEFAULT_FILE_FORMAT: FileFormat = 'srt';

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
 * trpc-to-openapi answers only JSON, so this plain route calls the same procedure as POST /subtitles (and MCP's
 * get_video_subtitles): auth, rate limit, credits and errors are the procedure's.
 */
export async function serveTranscriptFile(
  ctx: Context,
  videoId: string,
  query: Record<string, string>,
): Promise<Response> {
  const headers = new Headers({ 'x-request-id': ctx.requestId });
  try {
    const format = (query.format || DEFAULT_FILE_FORMAT) as FileFormat;
    // The path takes a YouTube URL too (percent-encoded), like GET /videos/{videoId}.
    const ref = /[./:]/.test(videoId) ? { url: videoId } : { videoId };
    // Any other format (json included) is left for the procedure's input validation to refuse, so a bad request
    // without a valid key is still a 401 and with one a 400 (the message is rewritten below).
    const t = await createCaller(ctx).subtitles.get({
      ...ref,
      lang: query.lang || undefined,
      // Left for the procedure's validation, as format is: the cast lets an unchecked value through to be refused.
      mode: (query.mode || undefined) as never,
      format: FILE_FORMATS.includes(format) ? format : (`not ${format}` as never),
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
    const f = failureOf(err, ctx.requestId);
    if (f.code === 'INVALID_REQUEST')
      f.message = f.message.replace(
        /\bformat: [^;]*/,
        `format: must be ${FILE_FORMATS.join(', ')} (default ${DEFAULT_FILE_FORMAT})`,
      );
    return restErrorResponse(f, {
      requestId: ctx.requestId,
      requestHeaders: ctx.headers,
      rateLimit: ctx.out.rateLimit,
    });
  }
}
