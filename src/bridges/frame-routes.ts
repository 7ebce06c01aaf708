import type { Hono } from 'hono';
import type { Deps } from '../deps.ts';
import { verifyFramePath } from '../domain/frames/frame-url.ts';
import { frameBlobKey } from '../domain/frames/frame-url.ts';
import { isMediaId, VIDEO_ID_PATTERN } from '../domain/video/video-ref.ts';
import type { ErrorCode } from '../domain/errors.ts';
import { failure } from './errors/failure.ts';
import { restErrorResponse } from './errors/rest-error.ts';
import type { HttpEnv } from './http-env.ts';

/** Signed frame URLs: no headers needed, so they work in an <img>. Immutable content, cacheable for a day. */
export function mountSignedFrames(app: Hono<HttpEnv>, deps: Deps) {
  app.get('/frames/:videoId/:tMs/:file', async (c) => {
    const refuse = (code: ErrorCode, message: string) =>
      restErrorResponse(failure(code, message), { requestId: c.get('requestId'), requestHeaders: c.req.raw.headers });
    const { videoId, tMs, file } = c.req.param();
    const width = /^(\d{1,4})\.jpg$/.exec(file)?.[1];
    // A media id's frame URL was signed for the account that owns it: the signature is the capability, checked below
    // before the frame is looked up, so a refusal says nothing of whether it exists.
    if (!(VIDEO_ID_PATTERN.test(videoId) || isMediaId(videoId)) || !/^\d{1,9}$/.test(tMs) || !width) {
      return refuse('NOT_FOUND', 'No such frame');
    }
    if (!verifyFramePath(deps.signingSecret, c.req.path, c.req.query('exp'), c.req.query('sig'))) {
      return refuse('FORBIDDEN', 'The frame URL is invalid or has expired; request the frame again for a fresh URL');
    }
    const blob = await deps.blobs.get(frameBlobKey(videoId, Number(tMs), Number(width)));
    if (!blob) return refuse('NOT_FOUND', 'No such frame');
    return c.body(new Uint8Array(blob.bytes), 200, {
      'content-type': blob.mimeType,
      'cache-control': 'private, max-age=86400, immutable',
      'content-length': String(blob.bytes.length),
    });
  });
}
