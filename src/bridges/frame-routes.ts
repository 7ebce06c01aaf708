import type { Hono } from 'hono';
import type { Deps } from '../deps.ts';
import { verifyFramePath } from '../domain/frames/frame-url.ts';
import { frameBlobKey } from '../domain/frames/frame-url.ts';
import { errorBody } from '../router/error-table.ts';

/** Signed frame URLs: no headers needed, so they work in an <img>. Immutable content, cacheable for a day. */
export function mountSignedFrames(app: Hono<any>, deps: Deps) {
  app.get('/frames/:videoId/:tMs/:file', async (c) => {
    const { videoId, tMs, file } = c.req.param();
    const width = /^(\d{1,4})\.jpg$/.exec(file)?.[1];
    if (!/^[A-Za-z0-9_-]{11}$/.test(videoId) || !/^\d{1,9}$/.test(tMs) || !width) {
      return c.json(errorBody('NOT_FOUND', 'No such frame'), 404);
    }
    if (!verifyFramePath(deps.signingSecret, c.req.path, c.req.query('exp'), c.req.query('sig'))) {
      return c.json(errorBody('FORBIDDEN', 'The frame URL is invalid or has expired; request the frame again for a fresh URL'), 403);
    }
    const blob = await deps.blobs.get(frameBlobKey(videoId, Number(tMs), Number(width)));
    if (!blob) return c.json(errorBody('NOT_FOUND', 'No such frame'), 404);
    return c.body(new Uint8Array(blob.bytes), 200, {
      'content-type': blob.mimeType,
      'cache-control': 'private, max-age=86400, immutable',
      'content-length': String(blob.bytes.length),
    });
  });
}
