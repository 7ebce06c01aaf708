import { ServiceError } from '../errors.ts';
import type { SourceVideo } from '../ports.ts';
import type { Settings } from '../settings.ts';
import type { HotCache } from '../transcripts/hot-cache.ts';
import type { Stores } from '../stores.ts';
import type { JobRun } from '../work-queue.ts';
import type { WorkQueue } from '../work-queue.ts';
import { VIDEO_INFO_TTL_MS } from './video-store.ts';

export interface LoadVideoPorts extends Pick<Stores, 'videos'> {
  workQueue: WorkQueue;
  hotCache: HotCache;
  config: Pick<Settings, 'REQUEST_WAIT_MS'>;
}

/** A job's outcome as a value, or the ServiceError it ended with; SERVICE_BUSY when the wait ran out. */
export async function outcomeOf<T>(run: Promise<JobRun<T>>): Promise<{ value: T; producer: boolean }> {
  const { outcome, producer } = await run;
  if (!outcome) {
    throw new ServiceError(
      'SERVICE_BUSY',
      'The work is taking longer than expected; retry shortly (a stored result is free)',
      5,
    );
  }
  if (!outcome.ok) throw new ServiceError(outcome.error.code, outcome.error.message, outcome.error.retryAfter);
  return { value: outcome.value, producer };
}

/** Metadata and tracks when stored and fresh enough (the cache, then the store), else null: YouTube is not asked. */
export async function storedVideo(
  ports: Pick<LoadVideoPorts, 'videos' | 'hotCache'>,
  videoId: string,
  maxAgeMs = VIDEO_INFO_TTL_MS,
): Promise<SourceVideo | null> {
  const isFresh = (v: { fetchedAt: Date } | null | undefined) => !!v && Date.now() - v.fetchedAt.getTime() < maxAgeMs;
  const cached = ports.hotCache.getVideo(videoId);
  if (cached && isFresh(cached)) return cached;
  const stored = await ports.videos.read(videoId);
  if (!stored || !isFresh(stored)) return null;
  ports.hotCache.setVideo(videoId, stored);
  return stored;
}

/**
 * Metadata and tracks, from storage when fresh enough, else fetched from YouTube through the
 * capacity-limited extraction queue (one fetch per video however many ask at once).
 */
export async function loadVideo(
  ports: LoadVideoPorts,
  videoId: string,
  /**
   * `beforeFetch` runs only when YouTube must be asked (nothing fresh is stored), with the queue's key of the fetch:
   * it may refuse, or answer a release called when the fetch ends (a lookup admission's slot). `accountId`: whose request the fetch counts against in
   * the queue's per-account cap.
   */
  opts: {
    maxAgeMs?: number;
    beforeFetch?: (fetchKey: string) => Promise<(() => Promise<void>) | undefined>;
    accountId?: string;
  } = {},
): Promise<SourceVideo> {
  const stored = await storedVideo(ports, videoId, opts.maxAgeMs);
  if (stored) return stored;
  const key = `info:${videoId}`;
  const release = await opts.beforeFetch?.(key);
  try {
    // A fetch of it that ended while this one was admitted has stored it: asking again would cost a lookup unseen.
    const meanwhile = release && (await storedVideo(ports, videoId, opts.maxAgeMs));
    if (meanwhile) return meanwhile;
    await outcomeOf(
      ports.workQueue.extract({ kind: 'info', videoId }, key, ports.config.REQUEST_WAIT_MS, opts.accountId),
    );
  } finally {
    await release?.();
  }
  const fetched = await ports.videos.read(videoId);
  if (!fetched) throw new ServiceError('EXTRACTION_FAILED', 'Video metadata could not be stored; retry');
  ports.hotCache.setVideo(videoId, fetched);
  return fetched;
}
