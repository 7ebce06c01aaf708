// Proof-of-origin tokens for YouTube's web clients. Since 2025 most are bound to the video id (their "content
// binding") and live about 12 hours, so one is minted per video; a single static token works for one video at most.
// Adapters: the bgutil-ytdlp-pot-provider HTTP server, in-process minting with bgutils-js, a static token
// (src/infra/youtube/po-token/).

export interface MintedToken {
  token: string;
  /** When the provider says it stops being accepted (about 12 h after minting for BotGuard tokens). */
  expiresAt: Date;
  /**
   * The visitor data the token is bound to (the page it was minted from): the player request made with the token
   * must carry the same. Absent when the provider does not say (a bgutil server, a static token).
   */
  visitorData?: string;
  /** How the BotGuard challenge was had: from the page the web player loads, or the standalone endpoint. */
  path?: 'page' | 'standalone';
}

export interface PoTokenProvider {
  /** "http", "bgutils" or "static": shown by `youtube status`. */
  readonly kind: string;
  /**
   * A web PO token bound to `videoId`, minted through `identity` (the egress identity the requests that use it leave
   * from: YouTube binds the token to the session that page gave that address). Throws when none can be minted (the
   * web clients are then skipped).
   */
  mint(videoId: string, signal?: AbortSignal, identity?: string): Promise<MintedToken>;
}
