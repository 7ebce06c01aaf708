import type { Context } from '../router/context.ts';
import { appRouter } from '../router/index.ts';
import { createCallerFactory } from '../router/trpc.ts';
import { failureOf } from './errors/failure.ts';
import { restErrorResponse } from './errors/rest-error.ts';
import { rateLimitHeaders } from './response-headers.ts';

const createCaller = createCallerFactory(appRouter);

// Plain decimals only, as for every REST query string (see rest-query.ts); anything else fails validation.
const num = (v: string | undefined) => (v !== undefined && /^-?\d{1,16}(\.\d{1,16})?$/.test(v) ? Number(v) : v);

/**
 * GET /api/v1/videos/{videoId}/frame?t=&width= answers the JPEG itself, so `curl -o frame.jpg` works.
 * trpc-to-openapi cannot answer bytes, so this plain route calls the same procedure as MCP's frame tool.
 */
export async function serveFrameImage(ctx: Context, videoId: string, query: Record<string, string>): Promise<Response> {
  const headers = new Headers({ 'x-request-id': ctx.requestId });
  try {
    // The path takes a YouTube URL or a direct media URL too (percent-encoded), like GET /videos/{videoId}.
    const ref = /[./:]/.test(videoId) ? { url: videoId } : { videoId };
    const frame = await createCaller(ctx).frames.get({
      ...ref,
      t: num(query.t) as number,
      width: num(query.width) as number | undefined,
    });
    for (const [k, v] of rateLimitHeaders(ctx.out.rateLimit)) headers.set(k, v);
    headers.set('content-type', frame.mimeType);
    headers.set('cache-control', 'private, max-age=86400');
    headers.set('x-credits-charged', String(frame.creditsCharged));
    headers.set('x-frame-source', frame.source);
    return new Response(Buffer.from(frame.base64, 'base64'), { status: 200, headers });
  } catch (err) {
    return restErrorResponse(failureOf(err, ctx.requestId), {
      requestId: ctx.requestId,
      requestHeaders: ctx.headers,
      rateLimit: ctx.out.rateLimit,
    });
  }
}
