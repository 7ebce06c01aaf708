// Direct media URLs come from callers, so ffmpeg never fetches them itself (it resolves names on its own, follows
// redirects and opens whatever an HLS playlist names). It reads from this gateway instead: a loopback HTTP server in
// our process that fetches each URL through the guarded agent (public addresses only, checked at connect time, IP
// literals before), follows redirects itself (each hop checked), passes Range through for seeking, rewrites HLS
// playlists so every URI they name comes back through the gateway, and stops serving past the byte bound.
// Rewriting alone is only as good as its parsing matches ffmpeg's, so the gateway is also ffmpeg's HTTP proxy
// (`ffmpegArgs`, and an environment without no_proxy): any URL the rewriting missed still arrives here, in absolute
// form, and is refused unless it is one of the gateway's own.
// A YouTube stream goes through it too when the egress identity that got its URL is a proxy: the session fetches
// upstream through that proxy (any kind undici speaks: http, https, socks5), since googlevideo may bind a URL to the
// address that asked for it, and ffmpeg cannot speak https or socks5 proxies itself.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fetch as undiciFetch, type Agent, type Dispatcher } from 'undici';
import { ServiceError } from '../../domain/errors.ts';
import { followRedirects, readCapped, totalSize } from './checked-fetch.ts';
import { createGuardedAgent } from './guarded-agent.ts';
import {
  BlockedAddressError,
  isPublicAddress,
  operatorPolicy,
  REFUSED_HOST,
  resolveAllowed,
  type AddressPolicy,
} from './public-address.ts';
import type { AllowedNetworks } from '../../allowed-networks.ts';

export interface MediaGatewayOptions {
  /** Production: public addresses plus MEDIA_ALLOWED_NETWORKS. Tests may inject one that allows their loopback server. */
  policy?: AddressPolicy;
  /** The operator's own networks (MEDIA_ALLOWED_NETWORKS): reachable, and over plain http too (internal stores). */
  allowed?: AllowedNetworks;
  /** Production: https only. Tests serve plain http on loopback. */
  allowHttp?: boolean;
  /** Upstream connect and first-byte time. */
  timeoutMs?: number;
}

interface GatewaySession {
  /** The URL to hand ffmpeg or ffprobe (http://127.0.0.1:port/...); the original never reaches them. */
  url: string;
  /** Arguments for ffmpeg or ffprobe, before `-i`: the gateway as their HTTP proxy. */
  ffmpegArgs: string[];
  /** The environment to run them in: without no_proxy, which would let them past the proxy. */
  env: NodeJS.ProcessEnv;
  /** Bytes served so far in this session. */
  bytes(): number;
  /** True once a request was cut off at `maxBytes`. */
  exceeded(): boolean;
  close(): void;
}

export interface MediaGateway {
  /** Checks `raw` (scheme, credentials, every address public); INVALID_REQUEST when it may not be fetched. */
  check(raw: string): Promise<URL>;
  /** The first bytes (at most `n`) and the content type, through the same guard: for sniffing. */
  head(
    raw: string,
    n: number,
    signal?: AbortSignal,
  ): Promise<{ contentType: string | null; bytes: Buffer; size: number | null }>;
  /** `dispatcher`: fetch upstream through it (an egress identity's proxy) rather than the guarded direct agent. */
  open(raw: string, opts: { maxBytes: number; dispatcher?: Dispatcher }): Promise<GatewaySession>;
  stop(): Promise<void>;
}

const MAX_PLAYLIST_BYTES = 2 * 1024 * 1024;
const SNIFF_BYTES = 1024;
const PLAYLIST_TYPES = /^(application\/(vnd\.apple\.mpegurl|x-mpegurl)|audio\/(x-)?mpegurl)\b/i;

interface Session {
  dispatcher?: Dispatcher;
  bytes: number;
  maxBytes: number;
  exceeded: boolean;
  aborts: Set<AbortController>;
}

/** One gateway's state: its policy, the sessions it serves, and the agent and server it opens on first use. */
interface Gateway {
  opts: MediaGatewayOptions;
  policy: AddressPolicy;
  timeoutMs: number;
  sessions: Map<string, Session>;
  agent?: Agent;
  server?: Promise<{ server: Server; origin: string }>;
}

export function createMediaGateway(opts: MediaGatewayOptions = {}): MediaGateway {
  const g: Gateway = {
    opts,
    policy: opts.policy ?? (opts.allowed ? operatorPolicy(opts.allowed) : isPublicAddress),
    timeoutMs: opts.timeoutMs ?? 15_000,
    sessions: new Map(),
  };
  return {
    check: (raw) => check(g, raw),
    head: (raw, n, signal) => head(g, raw, n, signal),
    open: (raw, { maxBytes, dispatcher }) => open(g, raw, maxBytes, dispatcher),
    async stop() {
      if (!g.server) return;
      const { server: s } = await g.server;
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
      await g.agent?.close();
    },
  };
}

async function check({ opts, policy }: Gateway, raw: string): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused('it is not an absolute URL');
  }
  const httpOk = opts.allowHttp || (opts.allowed && !opts.allowed.empty);
  if (url.protocol !== 'https:' && !(httpOk && url.protocol === 'http:'))
    throw refused(`the scheme ${url.protocol} is not allowed (https only)`);
  if (url.username || url.password) throw refused('it carries credentials');
  // One sentence for every refusal: what a name resolves to, or why it does not, stays inside.
  const addresses = await resolveAllowed(url.hostname, policy).catch(() => {
    throw refused(REFUSED_HOST);
  });
  const internal = opts.allowed && addresses.every((a) => opts.allowed!.includes(a, url.hostname));
  if (url.protocol === 'http:' && !opts.allowHttp && !internal)
    throw refused(`the scheme ${url.protocol} is not allowed (https only)`);
  return url;
}

/** GETs `url` through the guard, following redirects ourselves (each hop checked). */
async function fetchChecked(
  g: Gateway,
  raw: string,
  headers: Record<string, string>,
  signal: AbortSignal,
  via?: Dispatcher,
) {
  const start = await check(g, raw);
  g.agent ??= createGuardedAgent(g.policy, { connectTimeoutMs: g.timeoutMs });
  const dispatcher = via ?? g.agent;
  const unusable = (status: number) =>
    new ServiceError('EXTRACTION_FAILED', `the media URL answered ${status} without a usable redirect`);
  return followRedirects(
    start,
    async (url) => {
      try {
        return await undiciFetch(url, { headers, redirect: 'manual', signal, dispatcher });
      } catch (err) {
        if (signal.aborted) throw signal.reason;
        const cause = (err as { cause?: unknown }).cause;
        if (cause instanceof BlockedAddressError) throw refused(REFUSED_HOST);
        // The cause names addresses and resolver answers; it stays inside.
        throw new ServiceError('EXTRACTION_FAILED', 'the media URL is unreachable');
      }
    },
    (raw) => check(g, raw),
    { missing: unusable, tooMany: unusable },
  );
}

async function head(g: Gateway, raw: string, n: number, signal?: AbortSignal) {
  const ctl = AbortSignal.any([AbortSignal.timeout(g.timeoutMs), ...(signal ? [signal] : [])]);
  const { res } = await fetchChecked(g, raw, { range: `bytes=0-${n - 1}` }, ctl);
  if (!res.ok) {
    await res.body?.cancel();
    throw new ServiceError('INVALID_REQUEST', `The media URL answered HTTP ${res.status}`);
  }
  const chunks: Buffer[] = [];
  let got = 0;
  for await (const c of res.body ?? []) {
    chunks.push(Buffer.from(c));
    got += c.length;
    if (got >= n) break;
  }
  await res.body?.cancel().catch(() => {});
  return {
    contentType: res.headers.get('content-type'),
    bytes: Buffer.concat(chunks).subarray(0, n),
    size: totalSize(res),
  };
}

async function open(g: Gateway, raw: string, maxBytes: number, dispatcher?: Dispatcher): Promise<GatewaySession> {
  const url = await check(g, raw);
  const { origin } = await start(g);
  const token = randomBytes(16).toString('hex');
  const session: Session = { dispatcher, bytes: 0, maxBytes, exceeded: false, aborts: new Set() };
  g.sessions.set(token, session);
  return {
    url: sessionUrl(origin, token, url.href),
    ffmpegArgs: ['-http_proxy', origin],
    env: withoutNoProxy(process.env),
    bytes: () => session.bytes,
    exceeded: () => session.exceeded,
    close() {
      g.sessions.delete(token);
      for (const a of session.aborts) a.abort();
    },
  };
}

function start(g: Gateway) {
  g.server ??= new Promise((resolve, reject) => {
    const s = createServer((req, res) => void serve(g, req, res, origin));
    let origin = '';
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      origin = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
      s.unref();
      resolve({ server: s, origin });
    });
  });
  return g.server;
}

/**
 * /<session>/<base64url of the upstream URL>/<its file name, for ffmpeg's extension checks>; as a proxy request
 * (absolute form) only for the gateway's own origin. Null when the request names no path of the gateway's.
 */
function gatewayPath(req: IncomingMessage, origin: string): string | null {
  const path = req.url ?? '';
  if (path.startsWith('/')) return path;
  let absolute: URL | undefined;
  try {
    absolute = new URL(path);
  } catch {
    absolute = undefined;
  }
  return absolute?.origin === origin ? absolute.pathname : null;
}

async function serve(g: Gateway, req: IncomingMessage, res: ServerResponse, origin: string) {
  const path = gatewayPath(req, origin);
  if (path === null) return void res.writeHead(403).end();
  const [, token, encoded] = path.split('/');
  const session = token ? g.sessions.get(token) : undefined;
  if (!session || !encoded || (req.method !== 'GET' && req.method !== 'HEAD')) return void res.writeHead(404).end();
  const target = Buffer.from(encoded, 'base64url').toString('utf8');
  const ctl = new AbortController();
  session.aborts.add(ctl);
  res.on('close', () => ctl.abort());
  try {
    const headers: Record<string, string> = {};
    if (req.headers.range) headers.range = req.headers.range;
    const { url, res: up } = await fetchChecked(g, target, headers, ctl.signal, session.dispatcher);
    const type = up.headers.get('content-type') ?? '';
    const out: Record<string, string> = {};
    for (const h of ['content-type', 'content-range', 'accept-ranges']) {
      const v = up.headers.get(h);
      if (v) out[h] = v;
    }
    // ffmpeg takes a body for a playlist by what it starts with, whatever its type, name or status: so does this.
    const { prefix, rest } = await sniff(up.body, SNIFF_BYTES);
    if (isPlaylist(prefix) || PLAYLIST_TYPES.test(type) || /\.m3u8?$/i.test(url.pathname)) {
      const via = (abs: string) => sessionUrl(origin, token!, abs);
      return await servePlaylist(req, res, { session, status: up.status, type: out['content-type'], rest, url, via });
    }
    const length = up.headers.get('content-length');
    if (length) out['content-length'] = length;
    res.writeHead(up.status, out);
    if (req.method === 'HEAD') {
      ctl.abort(); // the body is locked by the sniff: abort the fetch rather than cancel the stream
      return void res.end();
    }
    await pipeCounted(rest, res, session, ctl);
  } catch (err) {
    if (!res.headersSent)
      res.writeHead(err instanceof ServiceError && err.code === 'INVALID_REQUEST' ? 403 : 502).end();
    else res.destroy();
  } finally {
    session.aborts.delete(ctl);
  }
}

interface Playlist {
  session: Session;
  status: number;
  type: string | undefined;
  rest: AsyncIterable<Uint8Array>;
  url: URL;
  via: (absolute: string) => string;
}

/** A playlist, read whole (bounded) and rewritten so every URI it names comes back through the gateway. */
async function servePlaylist(req: IncomingMessage, res: ServerResponse, p: Playlist) {
  const text = (
    await readCapped(p.rest, MAX_PLAYLIST_BYTES, () => new ServiceError('MEDIA_TOO_LARGE', 'The playlist is too large'))
  ).toString('utf8');
  const body = Buffer.from(rewritePlaylist(text, p.url, p.via));
  p.session.bytes += body.length;
  // A new document: whole, not a range of the upstream one.
  res.writeHead(p.status === 206 ? 200 : p.status, {
    ...(p.type ? { 'content-type': p.type } : {}),
    'content-length': String(body.length),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** Streams the body on, counting its bytes against the session's bound and cutting it off past it. */
async function pipeCounted(
  rest: AsyncIterable<Uint8Array>,
  res: ServerResponse,
  session: Session,
  ctl: AbortController,
) {
  const counted = Readable.from(rest, { objectMode: false }).on('data', (c: Buffer) => {
    session.bytes += c.length;
    if (session.bytes > session.maxBytes) {
      session.exceeded = true;
      ctl.abort();
    }
  });
  await pipeline(counted, res).catch(() => {});
}

function sessionUrl(origin: string, token: string, upstream: string): string {
  const name =
    safeDecode(new URL(upstream).pathname.split('/').pop() || 'media')
      .replace(/[^A-Za-z0-9._-]/g, '_')
      .slice(-100) || 'media';
  return `${origin}/${token}/${Buffer.from(upstream).toString('base64url')}/${name}`;
}

function withoutNoProxy(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([k]) => k.toLowerCase() !== 'no_proxy'));
}

/** A path segment decoded, or as it is when its percent-encoding is broken (`%ZZ`). */
export function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The first `n` bytes of `body` (fewer at its end), and every byte of it again, those included, to read on. */
async function sniff(
  body: AsyncIterable<Uint8Array> | null,
  n: number,
): Promise<{ prefix: Buffer; rest: AsyncIterable<Uint8Array> }> {
  const it = (body ?? (async function* () {})())[Symbol.asyncIterator]();
  const held: Uint8Array[] = [];
  let size = 0;
  let done = false;
  while (size < n) {
    const next = await it.next();
    if (next.done) {
      done = true;
      break;
    }
    held.push(next.value);
    size += next.value.length;
  }
  async function* rest() {
    yield* held;
    if (done) return;
    for (let next = await it.next(); !next.done; next = await it.next()) yield next.value;
  }
  return { prefix: Buffer.concat(held), rest: rest() };
}

/**
 * Whether a body is an HLS playlist to ffmpeg: `#EXTM3U` after an optional BOM and whitespace. A prefix of nothing but
 * whitespace counts too (cannot tell, so rewrite: that is only ever wrong for a body that was not media anyway).
 */
export function isPlaylist(prefix: Buffer): boolean {
  const start = prefix.toString('latin1').replace(/^(\xef\xbb\xbf)?[\s\0]*/, '');
  if (start === '') return prefix.length > 0;
  return /^#EXTM3U/i.test(start);
}

/**
 * Every URI an HLS playlist names, resolved against it and sent through `via`: URI lines, and URI= attributes quoted
 * or not. Lines break where ffmpeg breaks them (LF, CR, CRLF, NUL). A URI that cannot be rewritten drops its whole
 * line: ffmpeg must never get one it would open itself.
 */
export function rewritePlaylist(text: string, base: URL, via: (absolute: string) => string): string {
  const resolve = (u: string) => via(new URL(u.trim(), base).href);
  const out: string[] = [];
  for (const line of text.split(/\r\n|[\r\n\0]/)) {
    try {
      if (line.startsWith('#')) {
        out.push(
          line.replace(
            /URI=(?:"([^"]*)"?|([^,\s]*))/g,
            (_, quoted: string | undefined, bare: string | undefined) => `URI="${resolve(quoted ?? bare ?? '')}"`,
          ),
        );
      } else out.push(line.trim() ? resolve(line) : line);
    } catch {
      // dropped
    }
  }
  return out.join('\n');
}

const refused = (why: string) => new ServiceError('INVALID_REQUEST', `The media URL cannot be fetched: ${why}`);
