// YOUTUBE_PO_TOKEN: one token given by the operator. The last resort: YouTube binds most web tokens to one video,
// so a static token serves that video (or, if it is session-bound, the session it was minted for) and no other.
import type { PoTokenProvider } from '../../../domain/youtube/po-token.ts';

export function createStaticTokenProvider(token: string): PoTokenProvider {
  return {
    kind: 'static',
    // Re-read every hour: nothing changes, but the cache must not hold it as if it were minted for one video.
    mint: async () => ({ token, expiresAt: new Date(Date.now() + 3_600_000) }),
  };
}
