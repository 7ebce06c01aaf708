import type { Deps } from '../deps.ts';
import { extractHandler } from './extract-worker.ts';
import { framesHandler } from './frames-worker.ts';
import { llmHandler } from './llm-worker.ts';
import { BATCH_ITEM_QUEUE, EXTRACT_QUEUE, FRAMES_QUEUE, LLM_QUEUE, queueSpecs, WEBHOOK_QUEUE } from './queues.ts';
import { batchItemHandler } from './batch-item-worker.ts';
import { webhookHandler } from './webhook-worker.ts';

export async function startWorkers(deps: Deps, opts: { work: boolean }) {
  await deps.queue.start(queueSpecs(deps.config));
  if (opts.work) {
    await deps.queue.work(EXTRACT_QUEUE, extractHandler(deps));
    await deps.queue.work(LLM_QUEUE, llmHandler(deps));
    await deps.queue.work(FRAMES_QUEUE, framesHandler(deps));
    await deps.queue.work(BATCH_ITEM_QUEUE, batchItemHandler(deps));
    await deps.queue.work(WEBHOOK_QUEUE, webhookHandler(deps));
  }
  const timer = setInterval(() => void deps.apiKeys.pruneRateCounters().catch(() => {}), 60_000);
  timer.unref();
}
