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
  WATCH_QUEUE,
  WEBHOOK_QUEUE,
  YOUTUBE_CANARY_QUEUE,
} from './queues.ts';
import { scheduleWatchChecks, watchHandler } from './watch-worker.ts';
import { scheduleYoutubeCanary, youtubeCanaryHandler } from './youtube-canary-worker.ts';
import { speechHandler } from './speech-worker.ts';
import { batchItemHandler } from './batch-item-worker.ts';
import { webhookHandler } from './webhook-worker.ts';
import { armEndedJobWebhooks } from '../domain/webhooks/job-webhooks.ts';
import { jobWebhookPorts } from '../domain/batches/batch-sources.ts';
import { sweepItemsPorts } from './sweep-ports.ts';
import { sweepStalledItems } from '../domain/batches/sweep-stalled-items.ts';
import { sweepStalledJobs } from '../domain/jobs/sweep-stalled-jobs.ts';
import { sweepStaleHolds } from '../domain/credits/holds.ts';

/** How often a worker instance looks for stalled batch items and jobs, and for job callbacks to send. */
const SWEEP_INTERVAL_MS = 5_000;

export async function startWorkers(deps: Deps, opts: { work: boolean }) {
  await deps.queue.start(queueSpecs(deps.config));
  if (opts.work) {
    await deps.queue.work(EXTRACT_QUEUE, extractHandler(deps));
    await deps.queue.work(LLM_QUEUE, llmHandler(deps));
    await deps.queue.work(FRAMES_QUEUE, framesHandler(deps));
    await deps.queue.work(SPEECH_QUEUE, speechHandler(deps));
    await deps.queue.work(BATCH_ITEM_QUEUE, batchItemHandler(deps));
    await deps.queue.work(WEBHOOK_QUEUE, webhookHandler(deps));
    await deps.queue.work(WATCH_QUEUE, watchHandler(deps));
    scheduleWatchChecks(deps);
    // Only instances with canary videos poll the canary's queue (and offer runs).
    if (deps.config.YOUTUBE_CANARY_VIDEOS.length > 0) {
      await deps.queue.work(YOUTUBE_CANARY_QUEUE, youtubeCanaryHandler(deps));
      scheduleYoutubeCanary(deps);
    }
  }
  if (opts.work) {
    // Batch items and jobs whose queue jobs died on every attempt (or were never enqueued) are ended, holds whose work
    // is over without settling them are released, and jobs that
    // ended without their worker noticing a callbackUrl (settled by a poll, a worker that died) get it sent. One
    // pass at a time; a failed pass (the database away) is simply the next one's to do.
    let sweeping = false;
    const sweep = setInterval(async () => {
      // This instance stopped (its queue with it): so does its sweep.
      if (!deps.queue.isRunning()) return clearInterval(sweep);
      if (sweeping) return;
      sweeping = true;
      try {
        await sweepStalledItems(sweepItemsPorts(deps)).catch((err) =>
          deps.log.warn({ err }, 'batch item sweep failed'),
        );
        await sweepStalledJobs(deps).catch((err) => deps.log.warn({ err }, 'job sweep failed'));
        await sweepStaleHolds(deps).catch((err) => deps.log.warn({ err }, 'hold sweep failed'));
        await armEndedJobWebhooks(jobWebhookPorts(deps)).catch(() => {});
      } finally {
        sweeping = false;
      }
    }, SWEEP_INTERVAL_MS);
    sweep.unref();
  }
  const timer = setInterval(() => void deps.apiKeys.pruneRateCounters().catch(() => {}), 60_000);
  timer.unref();
}
