import type { BatchItem, BatchOperation, BatchStatus } from './schemas.ts';

export interface BatchRow {
  id: string;
  accountId: string;
  status: BatchStatus;
  operation: BatchOperation;
  callbackUrl: string | null;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
}

/** A batch that has just ended. */
interface SettledBatch extends BatchRow {
  /** Its listing pages when no video of it was charged: paid by no video. */
  unpaidListingPages: number;
  /** What it listed (null: a list of videos), and the request that created it. */
  listingKind: 'playlist' | 'channel' | 'search' | null;
  requestId: string;
}

export interface ClaimedItem {
  batchId: string;
  position: number;
  videoId: string;
  requestId: string;
  accountId: string;
  operation: BatchOperation;
}

export interface BatchStore {
  /** The batch and one queued item per video, in one transaction. */
  create(b: {
    accountId: string;
    requestId: string;
    operation: BatchOperation;
    source: unknown;
    callbackUrl: string | null;
    videoIds: string[];
    /** Listing pages fetched to find the videos (none for given ids). */
    listingPages?: number;
  }): Promise<BatchRow>;
  get(id: string, accountId: string): Promise<{ batch: BatchRow; items: BatchItem[] } | null>;
  /**
   * queued -> running, atomically; null when the item is no longer queued (cancelled, or another worker has it).
   * With `reclaim`, a running item is taken too: its job is being retried, so the run that had it is dead.
   */
  claimItem(batchId: string, position: number, reclaim?: boolean): Promise<ClaimedItem | null>;
  /** running -> queued again (its work is sent again later); false when the item was not running. */
  requeueItem(batchId: string, position: number): Promise<boolean>;
  finishItem(
    batchId: string,
    position: number,
    outcome: Pick<BatchItem, 'status' | 'result' | 'error' | 'creditsCharged'>,
  ): Promise<void>;
  /**
   * Items of running batches for which no job of `queue` is queued or running (its first run's key
   * `batchId:position`, or a later run's `batchId:position:attempt`): running ones (a run claims its item only while
   * its job is active, so the job died on every retry, its worker killed each time), and queued ones untouched for
   * `queuedGraceSeconds` by the database's clock (the enqueue after the batch was stored was lost to a blip). A running
   * item is left alone for `runningGraceSeconds` after it last changed, so a run that has just claimed it is never
   * taken for a dead one.
   */
  stalledItems(
    queue: string,
    queuedGraceSeconds: number,
    runningGraceSeconds: number,
  ): Promise<
    { batchId: string; position: number; accountId: string; requestId: string; status: 'queued' | 'running' }[]
  >;
  /**
   * Batches with a callback that ended `graceSeconds` ago or more (within the last day) and have no webhook delivery:
   * the one run that ended them died (or lost the database) before it queued the event.
   */
  endedWithoutWebhook(graceSeconds: number): Promise<BatchRow[]>;
  /**
   * Ids of running batches with no item queued or running, unchanged for `graceSeconds`: the run that finished the
   * last item died (or lost the database) before it ended the batch, and no later run will.
   */
  doneButRunning(graceSeconds: number): Promise<string[]>;
  /** Every queued item becomes cancelled, with what the ledger took for its request (an earlier attempt); how many. */
  cancelQueued(batchId: string, accountId: string): Promise<number>;
  /**
   * Ends the batch when no item is queued or running any more: one caller wins (the status moves once) and gets
   * the final row; everyone else gets null.
   */
  settleIfDone(batchId: string): Promise<SettledBatch | null>;
}
