// Persistence of watches and what they found; src/infra/postgres/watches.ts implements it.
import type { Watch, WatchEvent, WatchTarget } from './schemas.ts';

export interface WatchRow extends Watch {
  accountId: string;
  /** Video ids at the top of the listing at the last good check; null before the first. */
  seenVideoIds: string[] | null;
}

interface NewWatch {
  accountId: string;
  target: WatchTarget;
  intervalSeconds: number;
  transcripts: boolean;
  lang: string | null;
  callbackUrl: string | null;
}

export interface WatchStore {
  /** Inserts unless the account already has `max` watches (counted under a per-account lock); null when refused. */
  create(w: NewWatch, max: number): Promise<WatchRow | null>;
  get(accountId: string, id: string): Promise<WatchRow | null>;
  list(accountId: string): Promise<WatchRow[]>;
  history(watchId: string, limit: number): Promise<WatchEvent[]>;
  delete(accountId: string, id: string): Promise<boolean>;
  /**
   * Active watches due now, each moved to its next check time in the same statement (skipping rows another
   * instance holds), so a watch is claimed by one checker per interval.
   */
  claimDue(limit: number): Promise<WatchRow[]>;
  /** Records a good check: the ids now at the top, failures reset. */
  checked(id: string, seenVideoIds: string[]): Promise<void>;
  /** Records a failed check; pauses with `reason` once failures reach `maxFailures`. */
  failed(id: string, error: string, maxFailures: number): Promise<void>;
  /** Records an event once per (watch, video, kind); false when it was already recorded. */
  recordEvent(
    watchId: string,
    e: Pick<WatchEvent, 'videoId' | 'kind' | 'title' | 'detail' | 'creditsCharged'>,
  ): Promise<boolean>;
}
