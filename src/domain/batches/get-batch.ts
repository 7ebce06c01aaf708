import { ServiceError } from '../errors.ts';
import type { WebhookStore } from '../webhooks/ports.ts';
import type { BatchRow, BatchStore } from './ports.ts';
import type { Batch, BatchCounts, BatchItem } from './schemas.ts';

export interface BatchViewPorts {
  batches: BatchStore;
  webhooks: WebhookStore;
}

function presentBatch(batch: BatchRow, items: BatchItem[], webhooks: Batch['webhooks']): Batch {
  const counts: BatchCounts = { total: items.length, queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 };
  for (const i of items) counts[i.status]++;
  const finished = counts.succeeded + counts.failed + counts.cancelled;
  return {
    id: batch.id,
    kind: 'batch',
    status: batch.status,
    operation: batch.operation,
    counts,
    progress: counts.total ? finished / counts.total : 1,
    creditsCharged: items.reduce((sum, i) => sum + i.creditsCharged, 0),
    callbackUrl: batch.callbackUrl,
    items,
    webhooks,
    createdAt: batch.createdAt.toISOString(),
    updatedAt: batch.updatedAt.toISOString(),
    finishedAt: batch.finishedAt?.toISOString() ?? null,
  };
}

/** A batch of the caller's account; another account's id reads as JOB_NOT_FOUND. */
export async function getBatch(deps: BatchViewPorts, accountId: string, id: string): Promise<Batch> {
  const found = await deps.batches.get(id, accountId);
  if (!found) throw new ServiceError('JOB_NOT_FOUND', `No batch ${JSON.stringify(id)} for this account`);
  const webhooks = await deps.webhooks.list({ accountId, jobId: id, limit: 20 });
  return presentBatch(found.batch, found.items, webhooks);
}
