// YouTube's player script in more than one build ("variant"): stream URLs are deciphered (signature, `n`) with the
// web build, and with the TV build when the web one fails (infra/youtube/player-scripts.ts). What each build of each
// player id came to is kept cluster-wide, so `youtube status` shows the scripts in use and whether they work.

/** The builds we decipher with, in the order tried when neither is known to work for a player id. */
export const PLAYER_VARIANTS = ['web', 'tv'] as const;
export type PlayerVariant = (typeof PLAYER_VARIANTS)[number];

export interface PlayerScriptUse {
  variant: PlayerVariant;
  playerId: string;
  /** ok: a stream URL was deciphered with it; failed: it threw, or left `n` as it was (or YouTube's error marker). */
  outcome: 'ok' | 'failed';
  error?: string;
}

export interface PlayerScriptRow {
  variant: PlayerVariant;
  playerId: string;
  firstUsed: Date;
  lastOk: Date | null;
  lastFailed: Date | null;
  lastError: string | null;
}

/** PostgreSQL in production (src/infra/postgres/youtube-player-scripts.ts). */
export interface PlayerScriptStore {
  record(use: PlayerScriptUse): Promise<void>;
  /** The newest player id of each variant. */
  latest(): Promise<PlayerScriptRow[]>;
}
