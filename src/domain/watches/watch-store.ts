// Persistence of watches and what they found; src/infra/postgres/watches.ts implements it.
import type { NewDelivery } from '../webhooks/ports.ts';
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
  /**
   * In one transaction: each event not recorded before (once per watch, video and kind) with the delivery of its
   * webhook (an outbox: a check that dies after it loses no event and sends none twice; the stalled-delivery sweep
   * queues what was stored but not queued) and, when `seen` is given, the good check (the ids now at the top,
   * failures reset). Returns the deliveries to queue; none when the watch is gone.
   */
  record(id: string, events: FoundEvent[], seen: string[] | null): Promise<string[]>;
  /** New videos with no transcript step recorded yet, oldest first (this check's, or one a dead check left). */
  pendingTranscripts(watchId: string, limit: number): Promise<Pick<WatchEvent, 'videoId' | 'title'>[]>;
  /**
   * Records a failed check; when `counted`, it adds to the failures and pauses with `reason` once they reach
   * `maxFailures` (a service-side refusal, such as a spent YouTube budget, is not the watch's failure).
   */
  failed(id: string, error: string, maxFailures: number, counted: boolean): Promise<void>;
}

/** An event a check found, with its webhook delivery when the watch has a callbackUrl. */
export interface FoundEvent extends Pick<WatchEvent, 'videoId' | 'kind' | 'title' | 'detail' | 'creditsCharged'> {
  delivery: NewDelivery | null;
}
