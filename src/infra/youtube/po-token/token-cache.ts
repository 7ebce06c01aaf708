// One token per egress identity and video, kept until shortly before it expires; concurrent asks share one mint.
// Per identity: a token is bound to the page session (visitor data) its identity was given, so the requests that
// use it must leave from the same identity. Bounded: the oldest entries go first once `max` are held.
import type { MintedToken, PoTokenProvider } from '../../../domain/youtube/po-token.ts';

/** A token is not used in its last minutes: a request made with it must still be accepted when it arrives. */
const MARGIN_MS = 5 * 60_000;

export interface TokenCache {
  readonly kind: string;
  /** The cached or freshly minted token for this video through this identity; throws what the provider threw. */
  forVideo(videoId: string, identity: string, signal?: AbortSignal): Promise<MintedToken>;
}

export function createTokenCache(
  provider: PoTokenProvider,
  opts: { max?: number; now?: () => number; onMint?: (minted: MintedToken) => void } = {},
): TokenCache {
  const max = opts.max ?? 5_000;
  const now = opts.now ?? Date.now;
  const tokens = new Map<string, MintedToken>();
  const minting = new Map<string, Promise<MintedToken>>();
  return {
    kind: provider.kind,
    async forVideo(videoId, identity, signal) {
      const key = `${identity}\u0000${videoId}`;
      const held = tokens.get(key);
      if (held && held.expiresAt.getTime() - MARGIN_MS > now()) return held;
      tokens.delete(key);
      let pending = minting.get(key);
      if (!pending) {
        // The first asker's signal does not cancel a mint others may be waiting for.
        pending = provider.mint(videoId, undefined, identity).finally(() => minting.delete(key));
        pending.then(opts.onMint, () => {});
        minting.set(key, pending);
      }
      const minted = await (signal ? raceAbort(pending, signal) : pending);
      if (tokens.size >= max) tokens.delete(tokens.keys().next().value!);
      tokens.set(key, minted);
      return minted;
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
