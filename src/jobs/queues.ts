import type { Config } from '../config.ts';
import type { QueueSpec } from '../infra/queue/job-queue.ts';

/** YouTube metadata and caption tracks. */
export const EXTRACT_QUEUE = 'extract';
/** Still frames (ffmpeg). */
export const FRAMES_QUEUE = 'frames';
/** Translations and LLM articles. */
export const LLM_QUEUE = 'llm';
/** Speech-to-text of a video's audio. */
export const SPEECH_QUEUE = 'speech';
/** One video of a batch. */
export const BATCH_ITEM_QUEUE = 'batch-item';
/** One webhook delivery attempt. */
export const WEBHOOK_QUEUE = 'webhook';
/** One look for due watches (watch-worker.ts). */
export const WATCH_QUEUE = 'watch-check';
/** One run of the YouTube canary (youtube-canary-worker.ts). */
export const YOUTUBE_CANARY_QUEUE = 'youtube-canary';

const LLM_EXPIRE_SECONDS = 1800;
const LLM_RETRIES = 2;
/** The longest an LLM job can run, retries included: a batch item waits this long for its article or translation. */
export const LLM_JOB_MAX_MS = LLM_EXPIRE_SECONDS * (LLM_RETRIES + 1) * 1000;

const SPEECH_RETRIES = 1;
/** One speech-to-text attempt may run this long: the local engine runs at about real time on one core, so twice the longest audio. */
const speechExpireSeconds = (c: Pick<Config, 'STT_MAX_SECONDS'>) => 2 * c.STT_MAX_SECONDS + 600;
/** The longest a speech-to-text job can run, its retry included: a batch item waits this long for its transcript. */
export const speechJobMaxMs = (c: Pick<Config, 'STT_MAX_SECONDS'>) =>
  speechExpireSeconds(c) * (SPEECH_RETRIES + 1) * 1000;

type QueueConfig = Pick<
  Config,
  | 'EXTRACTION_CONCURRENCY'
  | 'FRAME_CONCURRENCY'
  | 'LLM_CONCURRENCY'
  | 'STT_CONCURRENCY'
  | 'STT_ACCOUNT_CONCURRENCY'
  | 'STT_MAX_SECONDS'
  | 'JOB_EXPIRE_SECONDS'
>;

/** The queues a request's work runs on: extraction, frames, LLM, speech-to-text. */
function requestWorkQueues(c: QueueConfig): QueueSpec[] {
  return [
    {
      name: EXTRACT_QUEUE,
      work: 'Extraction',
      concurrency: c.EXTRACTION_CONCURRENCY,
      expireInSeconds: 120,
      retryLimit: 2,
      heartbeatSeconds: c.JOB_EXPIRE_SECONDS,
    },
    {
      name: FRAMES_QUEUE,
      work: 'Frame capture',
      concurrency: c.FRAME_CONCURRENCY,
      expireInSeconds: 120,
      retryLimit: 1,
      heartbeatSeconds: c.JOB_EXPIRE_SECONDS,
    },
    {
      name: LLM_QUEUE,
      work: 'Language-model work (translations, articles)',
      concurrency: c.LLM_CONCURRENCY,
      expireInSeconds: LLM_EXPIRE_SECONDS,
      retryLimit: LLM_RETRIES,
      heartbeatSeconds: c.JOB_EXPIRE_SECONDS,
    },
    // A dead worker is noticed by its heartbeat long before the expiry.
    {
      name: SPEECH_QUEUE,
      work: 'Speech-to-text',
      concurrency: c.STT_CONCURRENCY,
      // A slow media server must not let one account hold every slot (the decode itself is bounded in time too).
      groupConcurrency: c.STT_ACCOUNT_CONCURRENCY,
      expireInSeconds: speechExpireSeconds(c),
      retryLimit: SPEECH_RETRIES,
      heartbeatSeconds: c.JOB_EXPIRE_SECONDS,
    },
  ];
}

/** The queues of work no request waits on: batch items, webhook deliveries, the YouTube canary. */
function backgroundQueues(c: QueueConfig): QueueSpec[] {
  return [
    // A batch runs as many videos at once as extraction allows; each video's own extraction goes through EXTRACT_QUEUE,
    // its LLM work through LLM_QUEUE and its speech-to-text through SPEECH_QUEUE, waited for as long as that may take
    // (a dead worker is found by heartbeat). The 600 s cover the video's extraction before it (120 s, 3 attempts).
    {
      name: BATCH_ITEM_QUEUE,
      concurrency: c.EXTRACTION_CONCURRENCY,
      expireInSeconds: batchItemExpireSeconds(c),
      retryLimit: 2,
      heartbeatSeconds: c.JOB_EXPIRE_SECONDS,
    },
    { name: WEBHOOK_QUEUE, concurrency: 4, expireInSeconds: 60, retryLimit: 2, heartbeatSeconds: c.JOB_EXPIRE_SECONDS },
    // A failed look is retried by the next tick; each watch records its own failures.
    {
      name: WATCH_QUEUE,
      concurrency: 1,
      expireInSeconds: 1800,
      retryLimit: 0,
      heartbeatSeconds: c.JOB_EXPIRE_SECONDS,
    },
    // A failed run is the canary's answer (the gauges say it), not something to retry; the next interval runs again.
    {
      name: YOUTUBE_CANARY_QUEUE,
      concurrency: 1,
      expireInSeconds: 900,
      retryLimit: 0,
      heartbeatSeconds: c.JOB_EXPIRE_SECONDS,
    },
  ];
}

/** Queue definitions; every instance creates them, only workers consume them. */
export function queueSpecs(c: QueueConfig): QueueSpec[] {
  return [...requestWorkQueues(c), ...backgroundQueues(c)];
}

/** How long one batch item may run: the longest job it may wait for, and its extraction. */
const batchItemExpireSeconds = (c: Pick<Config, 'STT_MAX_SECONDS'>) =>
  Math.max(LLM_JOB_MAX_MS, speechJobMaxMs(c)) / 1000 + 600;
