// PO tokens from a bgutil-ytdlp-pot-provider server (github.com/Brainicism/bgutil-ytdlp-pot-provider, the provider
// yt-dlp users deploy, docker image brainicism/bgutil-ytdlp-pot-provider, port 4416), through its documented API:
//   POST /get_pot {"content_binding": "<video id>"} -> {"poToken", "contentBinding", "expiresAt"}
// (errors: 4xx/5xx with {"error": "..."}). The server runs BotGuard and caches the minter itself; we ask per video,
// with `proxy` set to the egress identity's proxy so its challenge page and our requests leave from one address.
// Only 1.3.2 and later mint from the page's challenge (ytAtN) that YouTube binds tokens to since July 2026
// (Brainicism/bgutil-ytdlp-pot-provider#243; the maintainer on yt-dlp/yt-dlp#17368): GET /ping answers
// {"server_uptime", "version"}, read once before the first mint (and at start, see `checkVersion`).
import type { MintedToken, PoTokenProvider } from '../../../domain/youtube/po-token.ts';

/** The oldest bgutil-ytdlp-pot-provider whose tokens googlevideo still accepts. */
const MIN_PROVIDER_VERSION = '1.3.2';

export interface HttpTokenProvider extends PoTokenProvider {
  /** Reads the server's version (GET /ping); rejects with a clear message below MIN_PROVIDER_VERSION. */
  checkVersion(signal?: AbortSignal): Promise<string>;
}

/** -1, 0, 1 over dotted numeric versions ("1.3.10" > "1.3.2"); a suffix after the numbers is ignored. */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) => (/^v?(\d+(?:\.\d+)*)/.exec(v.trim())?.[1] ?? '0').split('.').map(Number);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

const MAX_ANSWER_BYTES = 64 * 1024;
/** When the server names no expiry: BotGuard tokens live about 12 hours, 6 is safe. */
const DEFAULT_LIFETIME_MS = 6 * 3_600_000;

export function createHttpTokenProvider(opts: {
  url: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** The proxy URL of an egress identity (none: direct), passed to the server as `proxy`. */
  proxyFor?: (identity: string) => string | undefined;
}): HttpTokenProvider {
  const root = opts.url.endsWith('/') ? opts.url : `${opts.url}/`;
  const endpoint = new URL('get_pot', root);
  const send = opts.fetch ?? globalThis.fetch;
  const timeoutMs = opts.timeoutMs ?? 30_000;
  let checked: Promise<string> | undefined;
  const checkVersion = (signal?: AbortSignal) => {
    // A server that could not be reached is asked again next time; a version too old is refused for good.
    checked ??= readVersion(send, new URL('ping', root), timeoutMs, signal).catch((e: unknown) => {
      if (!(e instanceof ProviderTooOld)) checked = undefined;
      throw e;
    });
    return checked;
  };
  return {
    kind: 'http',
    checkVersion,
    async mint(videoId, signal, identity): Promise<MintedToken> {
      await checkVersion(signal);
      const signals = [AbortSignal.timeout(timeoutMs), signal].filter((s): s is AbortSignal => !!s);
      const proxy = identity ? opts.proxyFor?.(identity) : undefined;
      let res: Response;
      try {
        res = await send(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ content_binding: videoId, ...(proxy ? { proxy } : {}) }),
          redirect: 'error',
          signal: AbortSignal.any(signals),
        });
      } catch (e) {
        throw new Error(
          `PO token provider at ${endpoint.origin} did not answer: ${e instanceof Error ? e.message : String(e)}`,
        );
      }
      return readTokenAnswer(res, videoId);
    },
  };
}

/** The server's answer to POST /get_pot: the token for this video, or the error it said. */
async function readTokenAnswer(res: Response, videoId: string): Promise<MintedToken> {
  const text = await res.text();
  if (text.length > MAX_ANSWER_BYTES)
    throw new Error(`PO token provider answered ${text.length} bytes; expected a small JSON object`);
  let body: { poToken?: unknown; contentBinding?: unknown; expiresAt?: unknown; error?: unknown } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // reported below with the status
  }
  if (!res.ok)
    throw new Error(
      `PO token provider answered HTTP ${res.status}${typeof body.error === 'string' ? `: ${body.error.slice(0, 300)}` : ''}`,
    );
  if (typeof body.poToken !== 'string' || !/^[A-Za-z0-9_=-]{16,4096}$/.test(body.poToken)) {
    throw new Error('PO token provider answered without a usable poToken');
  }
  // A token bound to something else (an older server ignoring content_binding) is no use for this video.
  if (typeof body.contentBinding === 'string' && body.contentBinding !== videoId) {
    throw new Error(`PO token provider minted for "${body.contentBinding.slice(0, 40)}", not for ${videoId}`);
  }
  const expires =
    typeof body.expiresAt === 'string' || typeof body.expiresAt === 'number' ? new Date(body.expiresAt) : undefined;
  const expiresAt =
    expires && Number.isFinite(expires.getTime()) ? expires : new Date(Date.now() + DEFAULT_LIFETIME_MS);
  return { token: body.poToken, expiresAt };
}

/** A provider older than MIN_PROVIDER_VERSION: its tokens come from the standalone challenge googlevideo refuses. */
export class ProviderTooOld extends Error {}

async function readVersion(send: typeof fetch, url: URL, timeoutMs: number, signal?: AbortSignal): Promise<string> {
  const signals = [AbortSignal.timeout(timeoutMs), signal].filter((s): s is AbortSignal => !!s);
  let body: { version?: unknown } = {};
  let status: number;
  try {
    const res = await send(url, {
      headers: { accept: 'application/json' },
      redirect: 'error',
      signal: AbortSignal.any(signals),
    });
    status = res.status;
    const text = await res.text();
    try {
      body = JSON.parse(text.slice(0, MAX_ANSWER_BYTES)) as typeof body;
    } catch {
      // reported below
    }
  } catch (e) {
    throw new Error(
      `PO token provider at ${url.origin} did not answer GET /ping: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  const version = typeof body.version === 'string' ? body.version : undefined;
  if (!version || compareVersions(version, MIN_PROVIDER_VERSION) < 0) {
    throw new ProviderTooOld(
      `PO token provider at ${url.origin} is ${version ? `bgutil-ytdlp-pot-provider ${version}` : `of unknown version (GET /ping answered HTTP ${status}${version === undefined ? ' without a version' : ''})`}; ` +
        `${MIN_PROVIDER_VERSION} or newer is needed (older ones mint from the standalone challenge, whose tokens googlevideo refuses since July 2026): ` +
        'upgrade it (docker pull brainicism/bgutil-ytdlp-pot-provider) or unset YOUTUBE_POT_PROVIDER_URL',
    );
  }
  return version;
}
