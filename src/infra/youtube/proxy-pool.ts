// The egress identities YouTube traffic leaves from, cheapest first: the machine's own address ("direct") when no
// datacenter proxy is set, else one per proxy of YOUTUBE_PROXY_URLS; then one per residential proxy of
// YOUTUBE_RESIDENTIAL_PROXY_URLS (http://, https:// or socks5://, credentials in the URL). undici's ProxyAgent speaks
// all three (SOCKS5 through its Socks5ProxyAgent); Node's fetch, which youtubei.js is handed (youtube-fetch.ts),
// takes it as `dispatcher`. An identity's name never carries the proxy's credentials: it is stored in PostgreSQL
// and shown on /metrics. Residential identities' responses are metered at the dispatcher, as bytes on the wire
// (before decompression), so nothing sent through them goes uncounted.
import { AsyncLocalStorage } from 'node:async_hooks';
import { type Dispatcher, ProxyAgent } from 'undici';

/** The identity of requests sent from the machine's own address. */
export const DIRECT = 'direct';

/** What the requests made inside it are for, and (under a reservation) the bytes they have spent so far. */
export interface MeterScope {
  purpose: string;
  bytes: number;
  /** A reservation covers these bytes: they are settled against it when it ends, not added one by one. */
  reserved: boolean;
  /** The most the requests in scope may carry (what was reserved): a response past it is cut off. */
  cap?: number;
}

/** A request through a residential identity outside a reservation: refused before anything is sent. */
class UnreservedResidential extends Error {
  constructor(identity: string) {
    super(`${identity}: a residential proxy carries only requests its byte budget reserved for`);
  }
}

/** A residential response cut off at its scope's cap, so it never carries more than was reserved. */
class ResidentialCapExceeded extends Error {
  constructor(cap: number) {
    super(`the answer through the residential proxy passed the ${cap} bytes reserved for it and was cut off`);
  }
}

/** Set around requests by their caller (fetch-player.ts, caption downloads); unset, the purpose is 'other'. */
export const meterScope = new AsyncLocalStorage<MeterScope>();

/** Bytes sent or received through a residential identity. */
export type ByteMeter = (
  identity: string,
  scope: MeterScope | undefined,
  direction: 'request' | 'response',
  bytes: number,
) => void;

export interface ProxyPool {
  /** Identity names, cheapest first: "direct" or "proxy-1:host:port"..., then "residential-1:host:port"... */
  readonly identities: string[];
  /** The datacenter (or direct) identities. */
  readonly cheap: string[];
  /** The residential identities: asked only after a bot check, their bytes metered and budgeted. */
  readonly residential: string[];
  /** The dispatcher for an identity (undefined: direct). */
  dispatcher(identity: string): object | undefined;
  /** For requests made outside a paced chain (listing pages): the cheap identities in turn. */
  next(): object | undefined;
  /** Counts a request's bytes when it leaves through a residential identity (responses count themselves). */
  countRequest(identity: string | undefined, bytes: number): void;
}

/** "proxy-2:host:port": the position keeps two proxies on one host apart, the host says which it is. */
export function identityName(url: string, index: number, prefix = 'proxy'): string {
  const u = new URL(url);
  return `${prefix}-${index + 1}:${u.hostname}${u.port ? `:${u.port}` : ''}`;
}

/** The identities a pool over these URLs has, without building it. */
export function proxyIdentities(proxyUrls: string[] = [], residentialUrls: string[] = []): string[] {
  const urls = proxyUrls.filter(Boolean);
  const cheap = urls.length ? urls.map((u, i) => identityName(u, i)) : [DIRECT];
  return [...cheap, ...residentialUrls.filter(Boolean).map((u, i) => identityName(u, i, 'residential'))];
}

export function createProxyPool(
  proxyUrls: string[] = [],
  residentialUrls: string[] = [],
  meter?: ByteMeter,
): ProxyPool {
  const dc = proxyUrls.filter(Boolean);
  const res = residentialUrls.filter(Boolean);
  const identities = proxyIdentities(dc, res);
  const cheapCount = dc.length || 1;
  const urlOf = (identity: string): string | undefined => {
    const i = identities.indexOf(identity);
    if (i < 0) return undefined;
    return i < cheapCount ? dc[i] : res[i - cheapCount];
  };
  const agents = new Map<string, object>();
  // Agents are made on first use: building one opens nothing, but there is no point before a request.
  const agentFor = (identity: string) => {
    const url = urlOf(identity);
    if (!url) return undefined;
    let agent = agents.get(identity);
    if (!agent) {
      // Plain-http targets (a relay, tests) go as absolute-form requests, as HTTP proxies expect; https targets
      // (youtube.com) always go through a CONNECT tunnel.
      const proxy = new ProxyAgent({ uri: url, proxyTunnel: false });
      agent = identity.startsWith('residential-') && meter ? metered(proxy, identity, meter) : proxy;
      agents.set(identity, agent);
    }
    return agent;
  };
  const cheap = identities.slice(0, cheapCount);
  let turn = 0;
  return {
    identities,
    cheap,
    residential: identities.slice(cheapCount),
    dispatcher: agentFor,
    next: () => (dc.length ? agentFor(cheap[turn++ % cheap.length]!) : undefined),
    countRequest: (identity, bytes) => {
      if (identity?.startsWith('residential-')) meter?.(identity, meterScope.getStore(), 'request', bytes);
    },
  };
}

/**
 * A dispatcher counting every response byte (status line and headers included, body as received), refusing a request
 * made outside a reservation, and aborting one once its scope has carried more than its cap.
 */
function metered(agent: Dispatcher, identity: string, meter: ByteMeter): Dispatcher {
  return agent.compose((dispatch) => (opts, handler) => {
    const scope = meterScope.getStore();
    // Every paid byte is reserved first: a caption URL bound to the identity, or anything else, is not sent.
    if (!scope?.reserved) throw new UnreservedResidential(identity);
    let abort: ((e: Error) => void) | undefined;
    const counting = new Proxy(handler, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (typeof value !== 'function') return value;
        const fn = value as (...a: unknown[]) => unknown;
        return (...args: unknown[]) => {
          abort ??= abortOf(prop, args);
          const bytes = responseBytes(prop, args);
          if (bytes > 0) meter(identity, scope, 'response', bytes);
          if (bytes > 0 && scope?.cap !== undefined && scope.bytes > scope.cap && abort) {
            abort(new ResidentialCapExceeded(scope.cap));
            return false;
          }
          return fn.apply(target, args);
        };
      },
    });
    return dispatch(opts, counting);
  });
}

/** How to abort the request, from the callback that hands it over (undici's legacy or its controller API). */
function abortOf(prop: string | symbol, args: unknown[]): ((e: Error) => void) | undefined {
  if (prop === 'onConnect') return args[0] as (e: Error) => void;
  const controller = args[0] as { abort?: (e: Error) => void } | undefined;
  if (prop === 'onRequestStart' && controller?.abort) return (e) => controller.abort!(e);
  return undefined;
}

/** The bytes a handler callback carries: header lines for the start of a response, chunks for its body. */
function responseBytes(prop: string | symbol, args: unknown[]): number {
  if (prop === 'onData') return (args[0] as Uint8Array).byteLength;
  if (prop === 'onResponseData') return (args[1] as Uint8Array).byteLength;
  if (prop === 'onHeaders') return headerBytes(args[1]);
  if (prop === 'onResponseStart') return headerBytes(args[2]);
  return 0;
}

function headerBytes(headers: unknown): number {
  const status = 'HTTP/1.1 200 OK\r\n'.length;
  if (Array.isArray(headers)) return status + headers.reduce((n: number, h) => n + String(h).length + 2, 0);
  if (headers && typeof headers === 'object')
    return status + Object.entries(headers).reduce((n, [k, v]) => n + k.length + String(v).length + 4, 0);
  return status;
}
