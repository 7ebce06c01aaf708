// The one fetch all YouTube traffic goes through (InnerTube calls, caption downloads, watch pages, stream URLs):
// it moves every request onto `baseUrl` (tests and relays stand in for youtube.com and googlevideo.com), adds the
// proxy, a timeout and the caller's abort signal, and hands the raw /player answer to whoever is waiting for it.
import { AsyncLocalStorage } from 'node:async_hooks';
import { rewriteClientContext, type ClientVariant } from './client-variants.ts';
import { describeNetworkError } from './network-error.ts';
import type { ProxyPool } from './proxy-pool.ts';

export const YOUTUBE_ORIGIN = 'https://www.youtube.com';

/** What one player request saw; filled in by the fetch, read by the client chain (see fetch-player.ts). */
export interface PlayerCapture {
  signal?: AbortSignal;
  /** The request goes out as this variant of the client youtubei.js built it for (client-variants.ts). */
  variant?: ClientVariant;
  status?: number;
  body?: string;
  error?: unknown;
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
}

export function rewriteOrigin(url: string | URL, baseUrl: string | undefined): URL {
  const out = new URL(url, YOUTUBE_ORIGIN);
  if (!baseUrl || baseUrl === YOUTUBE_ORIGIN) return out;
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/$/, '');
  return new URL(`${prefix}${out.pathname}${out.search}`, base.origin);
}

export function createYoutubeFetch(opts: YoutubeFetchOptions): typeof fetch {
  const send = opts.fetch ?? globalThis.fetch;
  const timeoutMs = opts.timeoutMs ?? 15_000;
  return async (input, init = {}) => {
    // Duck-typed: youtubei.js may hand us a Request from another realm or from undici's own classes.
    const request = typeof input === 'object' && 'url' in input && 'method' in input ? (input as Request) : undefined;
    const url = rewriteOrigin(request ? request.url : input.toString(), opts.baseUrl);
    const method = init.method ?? request?.method ?? 'GET';
    const capture = url.pathname.endsWith('/youtubei/v1/player') ? playerCapture.getStore() : undefined;
    const signals = [AbortSignal.timeout(timeoutMs), init.signal, capture?.signal].filter((s): s is AbortSignal => !!s);
    const identity = egressScope.getStore();
    const dispatcher = identity === undefined ? opts.proxies.next() : opts.proxies.dispatcher(identity);
    let body =
      init.body ?? (request && method !== 'GET' && method !== 'HEAD' ? await request.arrayBuffer() : undefined);
    let headers = init.headers ?? request?.headers;
    if (capture?.variant && body !== undefined && body !== null) {
      body = rewriteClientContext(
        typeof body === 'string' ? body : new TextDecoder().decode(body as ArrayBuffer),
        capture.variant,
      );
      headers = new Headers(headers);
      headers.set('X-Youtube-Client-Version', capture.variant.clientVersion);
      if (capture.variant.userAgent) headers.set('User-Agent', capture.variant.userAgent);
    }
    const forward = {
      method,
      headers,
      body,
      redirect: init.redirect ?? request?.redirect ?? 'follow',
      signal: AbortSignal.any(signals),
      ...(dispatcher ? { dispatcher } : {}),
    } as RequestInit;
    try {
      const response = await send(url, forward);
      if (capture) {
        capture.status = response.status;
        capture.body = await response.clone().text();
      }
      return response;
    } catch (error) {
      // The caller gave up: its abort, not a network failure. Anything else says what failed (DNS, refused, TLS...).
      const failure =
        init.signal?.aborted || capture?.signal?.aborted ? error : describeNetworkError(error, url.host, timeoutMs);
      if (capture) capture.error = failure;
      throw failure;
    }
  };
}
