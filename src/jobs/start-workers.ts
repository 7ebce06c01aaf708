import type { Deps } from '../deps.ts';
import { pruneRateCounters } from '../domain/rate-limit/consume.ts';
import { EXTRACT_QUEUE } from '../domain/video/load-video.ts';
import { extractHandler } from './extract-worker.ts';
import { llmHandler } from './llm-worker.ts';
import { LLM_QUEUE } from '../domain/jobs/llm-jobs.ts';
import { FRAMES_QUEUE } from '../domain/frames/capture-frames.ts';
import { framesHandler } from './frames-worker.ts';
import type { QueueSpec } from './queue.ts';

/** Queue definitions; every instance creates them, only workers consume them. */
export function queueSpecs(deps: Deps): QueueSpec[] {
  const c = deps.config;
  return [
    { name: EXTRACT_QUEUE, concurrency: c.EXTRACTION_CONCURRENCY, expireInSeconds: 120, retryLimit: 2, heartbeatSeconds: c.JOB_EXPIRE_SECONDS },
    { name: FRAMES_QUEUE, concurrency: c.FRAME_CONCURRENCY, expireInSeconds: 120, retryLimit: 1, heartbeatSeconds: c.JOB_EXPIRE_SECONDS },
    { name: 'llm', concurrency: c.LLM_CONCURRENCY, expireInSeconds: 1800, retryLimit: 2, heartbeatSeconds: c.JOB_EXPIRE_SECONDS },
  ];
}

export async function startWorkers(deps: Deps, opts: { work: boolean }) {
  await deps.queue.start(queueSpecs(deps));
  if (opts.work) {
    await deps.queue.work(EXTRACT_QUEUE, extractHandler(deps));
    await deps.queue.work(LLM_QUEUE, llmHandler(deps));
    await deps.queue.work(FRAMES_QUEUE, framesHandler(deps));
  }
  const timer = setInterval(() => void pruneRateCounters(deps.sql).catch(() => {}), 60_000);
  timer.unref();
}
