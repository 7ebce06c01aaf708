import type { Deps } from '../deps.ts';
import { runBatchItem } from '../domain/batches/run-batch-item.ts';
import { runBatchOperation } from '../domain/batches/run-operation.ts';
import { BatchItemPayload } from './payloads.ts';
import { batchPorts } from '../domain/batches/batch-sources.ts';
import { requeueBatchItem } from './batch-queues.ts';
import { LLM_JOB_MAX_MS } from './queues.ts';

/** The batch-item queue's handler: one video of a batch, as the single-video endpoint would do it for the batch's owner. */
export function batchItemHandler(deps: Deps) {
  // No client is waiting: an item waits for its work as long as that work may run (an LLM job and its retries; a
  // speech-to-text job is followed until it ends, and the batch-item queue's expiry covers both), so it never ends
  // as failed while the work could still succeed and be charged.
  const patient = { ...deps, config: { ...deps.config, REQUEST_WAIT_MS: LLM_JOB_MAX_MS } };
  const d = {
    ...batchPorts(deps),
    jobs: deps.jobs,
    log: deps.log,
    // Each item is a request of its own: its paying lookups count as unpaid if it ends having paid nothing.
    run: (item: Parameters<typeof runBatchOperation>[1]) =>
      deps.lookupAdmission.forRequest(item.accountId, item.requestId, () => runBatchOperation(patient, item)),
    ledger: deps.ledger,
    requeue: (job: { batchId: string; position: number; attempt: number }, at: Date) =>
      requeueBatchItem(deps.queue, job, at),
  };
  return (data: unknown, run: { retryCount: number }) => runBatchItem(d, BatchItemPayload.parse(data), run);
}
