import type { Deps } from '../deps.ts';
import { extractHandler } from './extract-worker.ts';
import { framesHandler } from './frames-worker.ts';
import { llmHandler } from './llm-worker.ts';
import {
  BATCH_ITEM_QUEUE,
  EXTRACT_QUEUE,
  FRAMES_QUEUE,
  LLM_QUEUE,
  queueSpecs,
  SPEECH_QUEUE,
  WEBHOOK_QUEUE,
  YOUTUBE_CANARY_QUEUE,
} from './queues.ts';
import { scheduleYoutubeCanary, youtubeCanaryHandler } from './youtube-canary-worker.ts';
import { speechHandler } from './speech-worker.ts';
import { batchItemHandler } from './batch-item-worker.ts';
import { webhookHandler } from './webhook-worker.ts';
import { armEndedTaskWebhooks } from '../domain/webhooks/task-webhooks.ts';
import { taskWebhookPorts } from '../domain/batches/batch-ports.ts';

export async function startWorkers(deps: Deps, opts: { work: boolean }) {
  await deps.queue.start(queueSpecs(deps.config));
  if (opts.work) {
    await deps.queue.work(EXTRACT_QUEUE, extractHandler(deps));
    await deps.queue.work(LLM_QUEUE, llmHandler(deps));
    await deps.queue.work(FRAMES_QUEUE, framesHandler(deps));
    await deps.queue.work(SPEECH_QUEUE, speechHandler(deps));
    await deps.queue.work(BATCH_ITEM_QUEUE, batchItemHandler(deps));
    await deps.queue.work(WEBHOOK_QUEUE, webhookHandler(deps));
    // Only instances with canary videos poll the canary's queue (and offer runs).
    if (deps.config.YOUTUBE_CANARY_VIDEOS.length > 0) {
      await deps.queue.work(YOUTUBE_CANARY_QUEUE, youtubeCanaryHandler(deps));
      scheduleYoutubeCanary(deps);
    }
  }
  if (opts.work) {
    // Tasks that ended without their worker noticing a callbackUrl (settled by a poll, a worker that died).
    const sweep = setInterval(() => void armEndedTaskWebhooks(taskWebhookPorts(deps)).catch(() => {}), 5_000);
    sweep.unref();
  }
  const timer = setInterval(() => void deps.apiKeys.pruneRateCounters().catch(() => {}), 60_000);
  timer.unref();
}
