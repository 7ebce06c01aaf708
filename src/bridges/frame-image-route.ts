import { getTRPCErrorFromUnknown } from '@trpc/server';
import type { Context } from '../router/context.ts';
import { ERROR_TABLE, errorBody } from '../router/error-table.ts';
import { appRouter } from '../router/index.ts';
import { codeOf, createCallerFactory } from '../router/trpc.ts';
import { rateLimitHeaders } from './response-headers.ts';

const createCaller = createCallerFactory(appRouter);

const num = (v: string | undefined) => (v !== undefined && /^-?\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : v);

/**
 * GET /api/v1/videos/{videoId}/frame?t=&width= answers the JPEG itself, so `curl -o frame.jpg` works.
 * trpc-to-openapi cannot answer bytes, so this plain route calls the same procedure as MCP's get_video_frame.
 */
export async function serveFrameImage(ctx: Context, videoId: string, query: Record<string, string>): Promise<Response> {
  const headers = new Headers({ 'x-request-id': ctx.requestId });
  try {
    const frame = await createCaller(ctx).frames.get({ videoId, t: num(query.t) as number, width: num(query.width) as number | undefined });
    for (const [k, v] of rateLimitHeaders(ctx.out.rateLimit)) headers.set(k, v);
    headers.set('content-type', frame.mimeType);
    headers.set('cache-control', 'private, max-age=86400');
    headers.set('x-credits-charged', String(frame.creditsCharged));
    headers.set('x-frame-source', frame.source);
    return new Response(Buffer.from(frame.base64, 'base64'), { status: 200, headers });
  } catch (err) {
    const { code, message } = codeOf(getTRPCErrorFromUnknown(err));
    for (const [k, v] of rateLimitHeaders(ctx.out.rateLimit)) headers.set(k, v);
    if (code === 'RATE_LIMITED' && ctx.out.rateLimit) headers.set('retry-after', String(ctx.out.rateLimit.reset));
    headers.set('content-type', 'application/json');
    const text = code === 'INTERNAL_ERROR' ? `Internal error (request ${ctx.requestId})` : message;
    return new Response(JSON.stringify(errorBody(code, text)), { status: ERROR_TABLE[code].status, headers });
  }
}
