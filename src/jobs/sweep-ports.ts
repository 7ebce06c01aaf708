// What the stalled-item sweep needs: the batch ports, plus the queues it looks into (names are the jobs layer's).
import type { Deps } from '../deps.ts';
import { batchPorts } from '../domain/batches/batch-sources.ts';
import type { SweepItemsPorts } from '../domain/batches/sweep-stalled-items.ts';
import { BATCH_ITEM_QUEUE, WEBHOOK_QUEUE } from './queues.ts';

export const sweepItemsPorts = (d: Deps): SweepItemsPorts => ({
  ...batchPorts(d),
  jobs: d.jobs,
  ledger: d.ledger,
  log: d.log,
  queue: BATCH_ITEM_QUEUE,
  webhookQueue: WEBHOOK_QUEUE,
});
