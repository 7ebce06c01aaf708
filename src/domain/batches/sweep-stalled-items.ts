// Batch items no job will ever run again: the queue gave up on the item's job after its last retry (its worker was
// killed on every attempt, so no run recorded an outcome), or the batch was stored but its jobs were never enqueued
// (the database went away in between). Without this sweep the item stays queued or running and its batch `running`
// forever, with no webhook. A queued item never started: it is sent again. A running one ends as failed, reporting
// what the ledger took for its request (a charge is taken with the result it pays for, so it stands: the same rule
// as an item that fails in its worker), and the work it waited on is given up so it cannot charge later. A batch
// whose items all ended but that no run ended (the last one died before it) is ended, and one that ended without its
// event queued (the run that ended it died right after) gets it queued.
import { giveUpRequest } from '../credits/holds.ts';
import type { JobError } from '../jobs/schemas.ts';
import { queueBatchWebhook, settleBatch, type RunItemPorts } from './run-batch-item.ts';

export interface SweepItemsPorts
  extends Pick<
    RunItemPorts,
    'batches' | 'lookupAdmission' | 'listingCharges' | 'webhooks' | 'enqueue' | 'jobs' | 'ledger' | 'log'
  > {
  /** The batch-item queue's name, whose live jobs keep an item out of the sweep. */
  queue: string;
  /** The webhook queue's name, whose live jobs keep a pending delivery out of the sweep. */
  webhookQueue: string;
  /** Sends the first job of these items again (same key: a no-op for an item whose job exists). */
  enqueueItems: (batchId: string, positions: number[]) => Promise<void>;
}

/** Queued items are left alone this long first: a batch is stored before its jobs are sent. */
const STALLED_QUEUED_SECONDS = 30;
/** Running items too, briefly: a run claims its item as its job starts, and may run outside a job (a test, a CLI). */
const STALLED_RUNNING_SECONDS = 15;

const STOPPED: JobError = {
  code: 'INTERNAL_ERROR',
  message: 'The video could not be processed: its job stopped on every attempt without an outcome',
};

/** One pass; returns how many items it moved. */
export async function sweepStalledItems(deps: SweepItemsPorts): Promise<number> {
  const stalled = await deps.batches.stalledItems(deps.queue, STALLED_QUEUED_SECONDS, STALLED_RUNNING_SECONDS);
  for (const item of stalled) {
    if (item.status === 'queued') {
      await deps.enqueueItems(item.batchId, [item.position]);
      continue;
    }
    deps.log.warn({ batchId: item.batchId, position: item.position }, 'batch item stalled: its job ended without it');
    // Whatever the dead runs left waiting (an article or translation) must not charge an item that has failed.
    await giveUpRequest(deps, { accountId: item.accountId, requestId: item.requestId, since: new Date(0) }, STOPPED);
    await deps.batches.finishItem(item.batchId, item.position, {
      status: 'failed',
      result: null,
      error: STOPPED,
      creditsCharged: await deps.ledger.chargedFor(item.accountId, item.requestId),
    });
    await settleBatch(deps, item.batchId);
  }
  // The run that finished a batch's last item ends the batch right after; one that died in between (or lost the
  // database on the queue's last retry) left it running with nothing left to run.
  const unsettled = await deps.batches.doneButRunning(STALLED_RUNNING_SECONDS);
  for (const batchId of unsettled) await settleBatch(deps, batchId);
  // The run that ended a batch queues its event right after; one that died in between left it with none.
  const silent = await deps.batches.endedWithoutWebhook(ENDED_WITHOUT_WEBHOOK_SECONDS);
  for (const batch of silent) await queueBatchWebhook(deps, batch);
  // A delivery whose attempt was never put on the queue (its row stored, then the enqueue lost): sent now.
  const unsent = await deps.webhooks.stalledPending(deps.webhookQueue, ENDED_WITHOUT_WEBHOOK_SECONDS);
  for (const d of unsent) await deps.enqueue(d.id, d.attempts + 1, null);
  return stalled.length + unsettled.length + silent.length + unsent.length;
}

/** An ended batch gets this long to have its event queued by the run that ended it. */
const ENDED_WITHOUT_WEBHOOK_SECONDS = 30;
