// Direct media URLs come from callers, so ffmpeg never fetches them itself (it resolves names on its own, follows
// redirects and opens whatever an HLS playlist names). It reads from this gateway instead: a loopback HTTP server in
// our process that fetches each URL through the guarded agent (public addresses only, checked at connect time, IP
// literals before), follows redirects itself (each hop checked), passes Range through for seeking, rewrites HLS
// playlists so every URI they name comes back through the gateway, and stops serving past the byte bound.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fetch as undiciFetch, type Agent } from 'undici';
import { ServiceError } from '../../domain/errors.ts';
import { createGuardedAgent } from './guarded-agent.ts';
import { BlockedAddressError, isPublicAddress, resolveAllowed, type AddressPolicy } from './public-address.ts';

export interface MediaGatewayOptions {
  /** Production: isPublicAddress. Tests inject one that also allows their loopback server. */
  policy?: AddressPolicy;
  /** Production: https only. Tests serve plain http on loopback. */
  allowHttp?: boolean;
  /** Upstream connect and first-byte time. */
  timeoutMs?: number;
}

export interface GatewaySession {
  /** The URL to hand ffmpeg or ffprobe (http://127.0.0.1:port/...); the original never reaches them. */
  url: string;
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
  head(raw: string, n: number, signal?: AbortSignal): Promise<{ contentType: string | null; bytes: Buffer; size: number | null }>;
  open(raw: string, opts: { maxBytes: number }): Promise<GatewaySession>;
  stop(): Promise<void>;
}

const MAX_REDIRECTS = 5;
const MAX_PLAYLIST_BYTES = 2 * 1024 * 1024;
const PLAYLIST_TYPES = /^(application\/(vnd\.apple\.mpegurl|x-mpegurl)|audio\/(x-)?mpegurl)\b/i;

interface Session {
  bytes: number;
  maxBytes: number;
  exceeded: boolean;
  aborts: Set<AbortController>;
}

export function createMediaGateway(opts: MediaGatewayOptions = {}): MediaGateway {
  const policy = opts.policy ?? isPublicAddress;
  const timeoutMs = opts.timeoutMs ?? 15_000;
  let agent: Agent | undefined;
  const sessions = new Map<string, Session>();
  let server: Promise<{ server: Server; origin: string }> | undefined;

  async function check(raw: string): Promise<URL> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw refused('it is not an absolute URL');
    }
    if (url.protocol !== 'https:' && !(opts.allowHttp && url.protocol === 'http:')) throw refused(`the scheme ${url.protocol} is not allowed (https only)`);
    if (url.username || url.password) throw refused('it carries credentials');
    try {
      await resolveAllowed(url.hostname, policy);
    } catch (err) {
      if (err instanceof BlockedAddressError) throw refused('its host does not resolve to public addresses only');
      throw refused('its host does not resolve');
    }
    return url;
  }

  /** GETs `url` through the guard, following redirects ourselves (each hop checked). */
  async function fetchChecked(raw: string, headers: Record<string, string>, signal: AbortSignal) {
    let url = await check(raw);
    agent ??= createGuardedAgent(policy, { connectTimeoutMs: timeoutMs });
    for (let hop = 0; ; hop++) {
      let res;
      try {
        res = await undiciFetch(url, { headers, redirect: 'manual', signal, dispatcher: agent });
      } catch (err) {
        if (signal.aborted) throw signal.reason;
        const cause = (err as { cause?: unknown }).cause;
        if (cause instanceof BlockedAddressError) throw refused('its host does not resolve to public addresses only');
        throw new ServiceError('EXTRACTION_FAILED', `the media URL is unreachable: ${(cause as Error | undefined)?.message ?? (err as Error).message}`);
      }
      if (res.status >= 300 && res.status < 400) {
        await res.body?.cancel();
        const location = res.headers.get('location');
        if (!location || hop >= MAX_REDIRECTS) throw new ServiceError('EXTRACTION_FAILED', `the media URL answered ${res.status} without a usable redirect`);
        url = await check(new URL(location, url).href);
        continue;
      }
      return { url, res };
    }
  }

  async function head(raw: string, n: number, signal?: AbortSignal) {
    const ctl = AbortSignal.any([AbortSignal.timeout(timeoutMs), ...(signal ? [signal] : [])]);
    const { res } = await fetchChecked(raw, { range: `bytes=0-${n - 1}` }, ctl);
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
    const range = /\/(\d+)\s*$/.exec(res.headers.get('content-range') ?? '');
    const length = res.status === 200 ? Number(res.headers.get('content-length') ?? NaN) : NaN;
    return { contentType: res.headers.get('content-type'), bytes: Buffer.concat(chunks).subarray(0, n), size: range ? Number(range[1]) : Number.isFinite(length) ? length : null };
  }

  async function serve(req: IncomingMessage, res: ServerResponse, origin: string) {
    // /<session>/<base64url of the upstream URL>/<its file name, for ffmpeg's extension checks>
    const [, token, encoded] = (req.url ?? '').split('/');
    const session = token ? sessions.get(token) : undefined;
    if (!session || !encoded || (req.method !== 'GET' && req.method !== 'HEAD')) return void res.writeHead(404).end();
    const target = Buffer.from(encoded, 'base64url').toString('utf8');
    const ctl = new AbortController();
    session.aborts.add(ctl);
    res.on('close', () => ctl.abort());
    try {
      const headers: Record<string, string> = {};
      if (req.headers.range) headers.range = req.headers.range;
      const { url, res: up } = await fetchChecked(target, headers, ctl.signal);
      const type = up.headers.get('content-type') ?? '';
      const out: Record<string, string> = {};
      for (const h of ['content-type', 'content-range', 'accept-ranges']) {
        const v = up.headers.get(h);
        if (v) out[h] = v;
      }
      if (up.ok && (PLAYLIST_TYPES.test(type) || /\.m3u8?$/i.test(url.pathname))) {
        const text = await readCapped(up, MAX_PLAYLIST_BYTES);
        const body = Buffer.from(rewritePlaylist(text, url, (abs) => sessionUrl(origin, token!, abs)));
        session.bytes += body.length;
        res.writeHead(up.status, { ...out, 'content-length': String(body.length) });
        return void res.end(req.method === 'HEAD' ? undefined : body);
      }
      const length = up.headers.get('content-length');
      if (length) out['content-length'] = length;
      res.writeHead(up.status, out);
      if (req.method === 'HEAD' || !up.body) {
        await up.body?.cancel();
        return void res.end();
      }
      const counted = Readable.fromWeb(up.body as never).on('data', (c: Buffer) => {
        session.bytes += c.length;
        if (session.bytes > session.maxBytes) {
          session.exceeded = true;
          ctl.abort();
        }
      });
      await pipeline(counted, res).catch(() => {});
    } catch (err) {
      if (!res.headersSent) res.writeHead(err instanceof ServiceError && err.code === 'INVALID_REQUEST' ? 403 : 502).end();
      else res.destroy();
    } finally {
      session.aborts.delete(ctl);
    }
  }

  function start() {
    server ??= new Promise((resolve, reject) => {
      const s = createServer((req, res) => void serve(req, res, origin));
      let origin = '';
      s.on('error', reject);
      s.listen(0, '127.0.0.1', () => {
        origin = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
        s.unref();
        resolve({ server: s, origin });
      });
    });
    return server;
  }

  return {
    check,
    head,
    async open(raw, { maxBytes }) {
      const url = await check(raw);
      const { origin } = await start();
      const token = randomBytes(16).toString('hex');
      const session: Session = { bytes: 0, maxBytes, exceeded: false, aborts: new Set() };
      sessions.set(token, session);
      return {
        url: sessionUrl(origin, token, url.href),
        bytes: () => session.bytes,
        exceeded: () => session.exceeded,
        close() {
          sessions.delete(token);
          for (const a of session.aborts) a.abort();
        },
      };
    },
    async stop() {
      if (!server) return;
      const { server: s } = await server;
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
      await agent?.close();
    },
  };
}

function sessionUrl(origin: string, token: string, upstream: string): string {
  const name = decodeURIComponent(new URL(upstream).pathname.split('/').pop() || 'media').replace(/[^A-Za-z0-9._-]/g, '_').slice(-100) || 'media';
  return `${origin}/${token}/${Buffer.from(upstream).toString('base64url')}/${name}`;
}

/** Every URI an HLS playlist names (lines, and URI="..." attributes), resolved against it and sent through `via`. */
export function rewritePlaylist(text: string, base: URL, via: (absolute: string) => string): string {
  const resolve = (u: string) => {
    try {
      return via(new URL(u.trim(), base).href);
    } catch {
      return u;
    }
  };
  return text
    .split(/\r?\n/)
    .map((line) => {
      if (line.startsWith('#')) return line.replace(/URI="([^"]*)"/g, (_, u: string) => `URI="${resolve(u)}"`);
      return line.trim() ? resolve(line) : line;
    })
    .join('\n');
}

async function readCapped(res: Response | Awaited<ReturnType<typeof undiciFetch>>, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of res.body ?? []) {
    size += c.length;
    if (size > max) throw new ServiceError('MEDIA_TOO_LARGE', 'The playlist is too large');
    chunks.push(Buffer.from(c));
  }
  return Buffer.concat(chunks).toString('utf8');
}

const refused = (why: string) => new ServiceError('INVALID_REQUEST', `The media URL cannot be fetched: ${why}`);
