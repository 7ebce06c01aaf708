// One token per video, kept until shortly before it expires; concurrent asks for one video share one mint. Bounded:
// the oldest entries go first once `max` videos are held.
import type { MintedToken, PoTokenProvider } from '../../../domain/youtube/po-token.ts';

/** A token is not used in its last minutes: a request made with it must still be accepted when it arrives. */
const MARGIN_MS = 5 * 60_000;

export interface TokenCache {
  readonly kind: string;
  /** The cached or freshly minted token for this video; throws what the provider threw. */
  forVideo(videoId: string, signal?: AbortSignal): Promise<string>;
}

export function createTokenCache(
  provider: PoTokenProvider,
  opts: { max?: number; now?: () => number } = {},
): TokenCache {
  const max = opts.max ?? 5_000;
  const now = opts.now ?? Date.now;
  const tokens = new Map<string, MintedToken>();
  const minting = new Map<string, Promise<MintedToken>>();
  return {
    kind: provider.kind,
    async forVideo(videoId, signal) {
      const held = tokens.get(videoId);
      if (held && held.expiresAt.getTime() - MARGIN_MS > now()) return held.token;
      tokens.delete(videoId);
      let pending = minting.get(videoId);
      if (!pending) {
        // The first asker's signal does not cancel a mint others may be waiting for.
        pending = provider.mint(videoId).finally(() => minting.delete(videoId));
        minting.set(videoId, pending);
      }
      const minted = await (signal ? raceAbort(pending, signal) : pending);
      if (tokens.size >= max) tokens.delete(tokens.keys().next().value!);
      tokens.set(videoId, minted);
      return minted.token;
    },
  };
}

function raceAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}
