// The one fetch all YouTube traffic goes through (InnerTube calls, caption downloads, watch pages, stream URLs):
// it moves every request onto `baseUrl` (tests and relays stand in for youtube.com and googlevideo.com), adds the
// proxy, a timeout and the caller's abort signal, and hands the raw /player answer to whoever is waiting for it.
import { AsyncLocalStorage } from 'node:async_hooks';
import { applyClientIdentity, CLIENT_IDENTITIES, type ClientIdentity } from './client-identities.ts';
import { describeNetworkError } from './network-error.ts';
import type { ProxyPool } from './proxy-pool.ts';

export const YOUTUBE_ORIGIN = 'https://www.youtube.com';

/** What one player request saw; filled in by the fetch, read by the client chain (see fetch-player.ts). */
export interface PlayerCapture {
  signal?: AbortSignal;
  /** The table row the request goes out as, for a client youtubei.js does not name (client-identities.ts). */
  variant?: string;
  status?: number;
  body?: string;
  error?: unknown;
  /** The visitor data the request's PO token is bound to (the minting page's): replaces the session's. */
  visitorData?: string;
  /** The client version the request was sent as (client-identities.ts), for the refusal that names it. */
  clientVersion?: string;
}

// youtubei.js parses the player response and drops what we need for classification (errorScreen, microformat
// dates, storyboard specs); the capture keeps the raw body for the call that is running, even with calls in flight
// concurrently on the shared Innertube instance.
export const playerCapture = new AsyncLocalStorage<PlayerCapture>();

// The egress identity a paced chain took for the request it is making (see fetch-player.ts): every request made
// inside `egressScope.run(identity, ...)` leaves through that identity's proxy, caption downloads included.
export const egressScope = new AsyncLocalStorage<string>();

export interface YoutubeFetchOptions {
  baseUrl?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  proxies: ProxyPool;
  /** Client names, versions, user agents and OS sent on InnerTube requests (default: the table's). */
  clients?: Record<string, ClientIdentity>;
}

// Caption and stream URLs come from the player answer: whatever host it names is asked, through the egress identity.
// Only YouTube's and Google's own hosts may be (https, default port); an answer naming 127.0.0.1 or an internal name
// is refused before any request. With a baseUrl every request is moved onto it instead (rewriteOrigin).
const YOUTUBE_HOSTS = ['youtube.com', 'googlevideo.com', 'ytimg.com', 'google.com', 'googleapis.com'];

/** Whether `url` is on YouTube's or Google's own hosts, over https on the default port. */
function isYoutubeHost(url: URL): boolean {
  if (url.protocol !== 'https:' || url.port !== '' || url.username || url.password) return false;
  const host = url.hostname;
  return YOUTUBE_HOSTS.some((h) => host === h || host.endsWith(`.${h}`));
}

export function rewriteOrigin(url: string | URL, baseUrl: string | undefined): URL {
  const out = new URL(url, YOUTUBE_ORIGIN);
  if (!baseUrl || baseUrl === YOUTUBE_ORIGIN) return out;
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/$/, '');
  return new URL(`${prefix}${out.pathname}${out.search}`, base.origin);
}

/** Redirects followed by hand, each target checked like the first URL (a proxy must never be sent elsewhere). */
const MAX_REDIRECTS = 5;

export function createYoutubeFetch(opts: YoutubeFetchOptions): typeof fetch {
  const timeoutMs = opts.timeoutMs ?? 15_000;
  return async (input, init = {}) => {
    // Duck-typed: youtubei.js may hand us a Request from another realm or from undici's own classes.
    const request = typeof input === 'object' && 'url' in input && 'method' in input ? (input as Request) : undefined;
    const url = allowedUrl(request ? request.url : input.toString(), opts.baseUrl);
    const method = init.method ?? request?.method ?? 'GET';
    const capture = url.pathname.endsWith('/youtubei/v1/player') ? playerCapture.getStore() : undefined;
    const signals = [AbortSignal.timeout(timeoutMs), init.signal, capture?.signal].filter((s): s is AbortSignal => !!s);
    let body =
      init.body ?? (request && method !== 'GET' && method !== 'HEAD' ? await request.arrayBuffer() : undefined);
    let headers: HeadersInit | undefined = init.headers ?? request?.headers;
    if (method === 'POST' && url.pathname.includes('/youtubei/v1/') && body !== undefined && body !== null) {
      ({ body, headers } = asClient(body, headers, opts.clients ?? CLIENT_IDENTITIES, capture));
    }
    const redirect = init.redirect ?? request?.redirect ?? 'follow';
    const forward = { method, headers, body, signal: AbortSignal.any(signals) } as RequestInit;
    try {
      const response = await sendFollowing(opts, url, forward, redirect);
      if (capture) {
        capture.status = response.status;
        capture.body = await response.clone().text();
      }
      return response;
    } catch (error) {
      if (error instanceof RefusedHost) throw error;
      // The caller gave up: its abort, not a network failure. Anything else says what failed (DNS, refused, TLS...).
      const failure =
        init.signal?.aborted || capture?.signal?.aborted ? error : describeNetworkError(error, url.host, timeoutMs);
      if (capture) capture.error = failure;
      throw failure;
    }
  };
}

class RefusedHost extends Error {}

/** The URL as it will be asked: moved onto baseUrl, or refused when it is not one of YouTube's hosts. */
function allowedUrl(url: string | URL, baseUrl: string | undefined): URL {
  const out = rewriteOrigin(url, baseUrl);
  if ((!baseUrl || baseUrl === YOUTUBE_ORIGIN) && !isYoutubeHost(out))
    throw new RefusedHost(`refused: ${out.protocol}//${out.host} is not one of YouTube's hosts`);
  return out;
}

/**
 * Sends through the egress identity in scope, following redirects itself: every hop is checked as the first URL was
 * and leaves through the same identity, so a redirect can never take a proxy to a private address.
 */
async function sendFollowing(
  opts: YoutubeFetchOptions,
  first: URL,
  init: RequestInit,
  redirect: RequestRedirect,
): Promise<Response> {
  const send = opts.fetch ?? globalThis.fetch;
  const identity = egressScope.getStore();
  let url = first;
  let req = init;
  for (let hop = 0; ; hop++) {
    const dispatcher = identity === undefined ? opts.proxies.next() : opts.proxies.dispatcher(identity);
    opts.proxies.countRequest(identity, requestBytes(url, req));
    const response = await send(url, {
      ...req,
      redirect: 'manual',
      ...(dispatcher ? { dispatcher } : {}),
    } as RequestInit);
    const location = response.headers.get('location');
    if (redirect !== 'follow' || !location || response.status < 300 || response.status > 399) return response;
    if (hop >= MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
    await response.body?.cancel();
    url = allowedUrl(new URL(location, url), opts.baseUrl);
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && req.method === 'POST'))
      req = { ...req, method: 'GET', body: undefined };
  }
}

/** A request's size on the wire, near enough: request line, headers and body. */
function requestBytes(url: URL, init: RequestInit): number {
  let n = `${init.method ?? 'GET'} ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n`.length;
  new Headers(init.headers).forEach((v, k) => {
    n += k.length + v.length + 4;
  });
  const b = init.body;
  if (typeof b === 'string') n += Buffer.byteLength(b);
  else if (b instanceof ArrayBuffer || ArrayBuffer.isView(b)) n += b.byteLength;
  return n + 2;
}

/**
 * An InnerTube request as the client table says the client is (version, user agent, OS), with the visitor data its
 * PO token was minted for. A body that is not JSON goes as it came.
 */
function asClient(
  body: BodyInit,
  headers: HeadersInit | undefined,
  table: Record<string, ClientIdentity>,
  capture: PlayerCapture | undefined,
): { body: BodyInit; headers: HeadersInit | undefined } {
  const text =
    typeof body === 'string'
      ? body
      : body instanceof ArrayBuffer || ArrayBuffer.isView(body)
        ? new TextDecoder().decode(body)
        : undefined;
  if (text === undefined) return { body, headers };
  let json: { context?: { client?: Record<string, unknown> } };
  try {
    json = JSON.parse(text) as typeof json;
  } catch {
    return { body, headers };
  }
  if (!json?.context?.client) return { body, headers };
  const out = new Headers(headers);
  const id = applyClientIdentity(json.context, table, capture?.variant);
  if (id) {
    out.set('User-Agent', id.userAgent);
    out.set('X-Youtube-Client-Version', id.version);
    if (capture) capture.clientVersion = id.version;
  }
  if (capture?.visitorData) {
    json.context.client.visitorData = capture.visitorData;
    out.set('X-Goog-Visitor-Id', capture.visitorData);
  }
  return { body: JSON.stringify(json), headers: out };
}
