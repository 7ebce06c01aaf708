// Request body limit that decides from the headers when it can. Hono's bodyLimit reads `c.req.raw.body`, which
// makes @hono/node-server build a full undici Request for every request (about 40 % of a small request's
// handling); a declared Content-Length is enforced by Node's parser, so checking it is enough. Only a chunked
// body goes through bodyLimit's counting reader.
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';

export function bodyLimitByHeaders(opts: {
  maxSize: number;
  onError: (c: Context) => Response | Promise<Response>;
}): MiddlewareHandler {
  const counting = bodyLimit(opts);
  return async (c, next) => {
    const headers = c.req.raw.headers;
    if (headers.has('transfer-encoding')) return counting(c, next);
    const declared = headers.get('content-length');
    // Neither header: a request without a body (RFC 9112 6.3).
    if (declared !== null && parseInt(declared, 10) > opts.maxSize) return opts.onError(c);
    await next();
  };
}
