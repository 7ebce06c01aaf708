// Text that is not valid Unicode is refused at the edge, before any route reads it: the request target (its
// percent-encoded bytes), every header value, and the body (invalid UTF-8, or JSON escaping a lone surrogate). Such
// text reached PostgreSQL as a 500 (a jsonb column refuses `\ud800`), or was stored silently changed (Node's UTF-8
// encoder turns a lone surrogate into U+FFFD). OAuth's paths read their input strictly themselves and answer in
// OAuth's shape (src/bridges/oauth/oauth-input.ts), so they are left to it.
//
// The body is read here once, as the bytes it came in (no parse, no copy into a new request); the surfaces take the
// checked text with `requestText`. tRPC reads its request itself, so it is handed `readableRequest`. A query
// parameter that carries JSON (tRPC's `input` on a GET) is checked as a body is: percent-decoding alone lets
// `%5Cud800` through.
import type { Context, MiddlewareHandler } from 'hono';
import { failure, type Failure } from './errors/failure.ts';
import { isOAuthPath } from './oauth/oauth-paths.ts';
import { decodeUtf8, escapesLoneSurrogate } from './unicode-text.ts';

const checkedBodies = new WeakMap<Request, string>();

/** The request's body text, as the edge checked it (read now when the edge did not, e.g. a bodiless request). */
export const requestText = (request: Request): Promise<string> => {
  const text = checkedBodies.get(request);
  return text === undefined ? request.text() : Promise.resolve(text);
};

/** The request, or, when the edge has read its body, a copy carrying that text for a reader of its own. */
export function readableRequest(request: Request, url: string | URL = request.url): Request {
  const text = checkedBodies.get(request);
  if (text === undefined) return request;
  return new Request(url, { method: request.method, headers: request.headers, body: text, signal: request.signal });
}

// A '%' that starts no escape is left as it is (routes decide about those); the rest must decode to UTF-8.
const STRAY_PERCENT = /%(?![0-9a-fA-F]{2})/g;
function targetIsUtf8(url: string): boolean {
  if (!url.includes('%')) return true;
  try {
    decodeURIComponent(url.replace(STRAY_PERCENT, '%25'));
    return true;
  } catch {
    return false;
  }
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: any byte past ASCII is what this finds
const NON_ASCII = /[^\x00-\x7f]/;
/** The name of the first header whose value's bytes (Node gives them as latin1) are not UTF-8. */
function badHeader(headers: Headers): string | undefined {
  for (const [name, value] of headers) {
    if (NON_ASCII.test(value) && decodeUtf8(Buffer.from(value, 'latin1')) === undefined) return name;
  }
  return undefined;
}

const hasBody = (req: Request) =>
  req.method !== 'GET' &&
  req.method !== 'HEAD' &&
  (req.headers.has('transfer-encoding') || Number(req.headers.get('content-length') ?? 0) > 0);

/** Why the body is refused, or undefined; the checked text is kept for the route. */
async function checkBody(req: Request): Promise<string | undefined> {
  const text = decodeUtf8(await req.arrayBuffer());
  if (text === undefined) return 'The request body is not valid UTF-8';
  if (escapesLoneSurrogate(text))
    return 'The request body has text that is not valid Unicode (a \\u escape of a lone surrogate)';
  checkedBodies.set(req, text);
  return undefined;
}

/** The first of `names` whose query value (JSON text, as tRPC's `input`) escapes a lone surrogate. */
function jsonParamEscapingLoneSurrogate(url: string, names: readonly string[]): string | undefined {
  if (!names.length || !url.includes('?')) return undefined;
  const params = new URL(url).searchParams;
  return names.find((name) => params.getAll(name).some(escapesLoneSurrogate));
}

type Render = (c: Context, f: Failure) => Response;

/**
 * The middleware; `render` answers a refusal in the shape of the path's surface, `jsonParams` names the query
 * parameters of a path whose values are JSON (their escapes are checked as a body's are).
 */
export function unicodeEdge(
  render: Render,
  jsonParams: (path: string) => readonly string[] = () => [],
): MiddlewareHandler {
  return async (c, next) => {
    if (isOAuthPath(c.req.path)) return next();
    const req = c.req.raw;
    const refuse = (message: string) => render(c, failure('INVALID_REQUEST', message));
    if (!targetIsUtf8(req.url)) return refuse('The request URL has percent-encoded bytes that are not valid UTF-8');
    const param = jsonParamEscapingLoneSurrogate(req.url, jsonParams(c.req.path));
    if (param)
      return refuse(`Query parameter ${param} has text that is not valid Unicode (a \\u escape of a lone surrogate)`);
    const header = badHeader(req.headers);
    if (header) return refuse(`Header ${header} is not valid UTF-8`);
    if (hasBody(req)) {
      const why = await checkBody(req);
      if (why) return refuse(why);
    }
    await next();
  };
}
