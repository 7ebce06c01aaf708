/** The settings domain rules read (src/config.ts parses them from the environment). */
export interface Settings {
  /** Free credits every account gets per UTC day. */
  DAILY_FREE_CREDITS: number;
  /** How long a request waits for its work before answering (202, or SERVICE_BUSY). */
  REQUEST_WAIT_MS: number;
  /** Requests per minute per key, unless the key or account says otherwise. */
  RATE_LIMIT_PER_MINUTE: number;
  /** Free video lookups of videos not yet stored (they spend the shared YouTube budget), per account per 10 minutes. */
  FREE_LOOKUPS_PER_10_MIN: number;
  /** Speech-to-text bounds: longest audio in seconds, largest stream in bytes. */
  STT_MAX_SECONDS: number;
  STT_MAX_BYTES: number;
}
