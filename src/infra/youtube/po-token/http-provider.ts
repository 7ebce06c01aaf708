// PO tokens from a bgutil-ytdlp-pot-provider server (github.com/Brainicism/bgutil-ytdlp-pot-provider, the provider
// yt-dlp users deploy, docker image brainicism/bgutil-ytdlp-pot-provider, port 4416), through its documented API:
//   POST /get_pot {"content_binding": "<video id>"} -> {"poToken", "contentBinding", "expiresAt"}
// (errors: 4xx/5xx with {"error": "..."}). The server runs BotGuard and caches the minter itself; we ask per video.
import type { MintedToken, PoTokenProvider } from '../../../domain/youtube/po-token.ts';

const MAX_ANSWER_BYTES = 64 * 1024;
/** When the server names no expiry: BotGuard tokens live about 12 hours, 6 is safe. */
const DEFAULT_LIFETIME_MS = 6 * 3_600_000;

export function createHttpTokenProvider(opts: {
  url: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}): PoTokenProvider {
  const endpoint = new URL('get_pot', opts.url.endsWith('/') ? opts.url : `${opts.url}/`);
  const send = opts.fetch ?? globalThis.fetch;
  const timeoutMs = opts.timeoutMs ?? 30_000;
  return {
    kind: 'http',
    async mint(videoId, signal): Promise<MintedToken> {
      const signals = [AbortSignal.timeout(timeoutMs), signal].filter((s): s is AbortSignal => !!s);
      let res: Response;
      try {
        res = await send(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ content_binding: videoId }),
          redirect: 'error',
          signal: AbortSignal.any(signals),
        });
      } catch (e) {
        throw new Error(
          `PO token provider at ${endpoint.origin} did not answer: ${e instanceof Error ? e.message : String(e)}`,
        );
      }
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
    },
  };
}
