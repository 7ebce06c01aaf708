import type { PaidQueue } from '../domain/credits/credit-ledger.ts';
import type { WorkQueue } from '../domain/work-queue.ts';
import type { JobQueue } from '../infra/queue/job-queue.ts';
import { enqueueBatchItems, enqueueWebhook } from './batch-queues.ts';
import { ExtractPayload, FramePayload, LlmPayload, SpeechPayload } from './payloads.ts';
import { EXTRACT_QUEUE, FRAMES_QUEUE, LLM_QUEUE, SPEECH_QUEUE } from './queues.ts';

/** The domain's WorkQueue over pg-boss: each kind of job to its queue, its payload checked against its schema. */
export function createWorkQueue(queue: Pick<JobQueue, 'run' | 'liveJobExists' | 'boss'>): WorkQueue {
  return {
    // Jobs carry the account that asked (pg-boss's group) so the queue can cap one account's share of it
    // (QUEUE_MAX_WAITING_PER_ACCOUNT); a metadata lookup counts against the account whose request sends it.
    extract: (job, key, waitMs, accountId) =>
      queue.run(EXTRACT_QUEUE, ExtractPayload.parse(job), key, waitMs, accountOf(job, accountId)),
    frame: (job, key, waitMs) =>
      queue.run(FRAMES_QUEUE, FramePayload.parse(job), key, waitMs, { group: job.accountId }),
    llm: (job, key, waitMs, accountId) =>
      queue.run(LLM_QUEUE, LlmPayload.parse(job), key, waitMs, { group: accountId }),
    speech: (job, key, waitMs, accountId) =>
      queue.run(SPEECH_QUEUE, SpeechPayload.parse(job), key, waitMs, { group: accountId }),
    llmJobAlive: (key) => queue.liveJobExists(LLM_QUEUE, key),
    speechJobAlive: (key) => queue.liveJobExists(SPEECH_QUEUE, key),
    jobAlive: (name, key) => queue.liveJobExists(PAID_QUEUES[name], key),
    batchItems: (batchId, positions) => enqueueBatchItems(queue, batchId, positions),
    webhook: (deliveryId, attempt, at) => enqueueWebhook(queue, deliveryId, attempt, at),
  };
}

const PAID_QUEUES: Record<PaidQueue, string> = {
  extract: EXTRACT_QUEUE,
  frames: FRAMES_QUEUE,
  llm: LLM_QUEUE,
  speech: SPEECH_QUEUE,
};

const accountOf = (job: { kind: string; accountId?: string }, asker?: string) => {
  const group = job.accountId ?? asker;
  return group ? { group } : {};
};
