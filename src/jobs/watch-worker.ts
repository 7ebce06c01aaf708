// Scheduled watch checks: every worker instance offers a look for due watches each WATCH_TICK_SECONDS, and pg-boss
// keeps one offer per period across the cluster (a singleton key throttled to the period). The look claims due
// watches with FOR UPDATE SKIP LOCKED and moves each to its next check in the same statement, so even two looks at
// once check a watch once. Listing and transcript requests go through the shared YouTube egress (same budgets).
import type { Deps } from '../deps.ts';
import { checkDueWatches, type CheckWatchPorts } from '../domain/watches/check-watch.ts';
import { webhookPorts } from '../domain/batches/batch-sources.ts';
import { LLM_JOB_MAX_MS, WATCH_QUEUE } from './queues.ts';

const SINGLETON_KEY = 'watch-check';
/** Watches one look claims; the rest are the next look's. */
const CLAIM_BATCH = 50;

export function watchCheckPorts(deps: Deps): CheckWatchPorts {
  // No client waits: a transcript's extraction is waited for as long as it may run, like a batch item.
  return {
    ...deps,
    config: { ...deps.config, REQUEST_WAIT_MS: LLM_JOB_MAX_MS },
    enqueue: webhookPorts(deps).enqueue,
    limits: {
      pagesPerCheck: deps.config.WATCH_PAGES_PER_CHECK,
      maxFailures: deps.config.WATCH_MAX_FAILURES,
      claimBatch: CLAIM_BATCH,
    },
  };
}

export function watchHandler(deps: Deps) {
  const ports = watchCheckPorts(deps);
  return async () => {
    const n = await checkDueWatches(ports);
    if (n) deps.log.info({ watches: n }, 'watches checked');
  };
}

/** Offers a look now and every tick; pg-boss drops the offers of a period that already has one. */
export function scheduleWatchChecks(deps: Pick<Deps, 'config' | 'queue' | 'log'>): void {
  const seconds = deps.config.WATCH_TICK_SECONDS;
  const offer = () =>
    void Promise.resolve()
      .then(() => deps.queue.boss.send(WATCH_QUEUE, {}, { singletonKey: SINGLETON_KEY, singletonSeconds: seconds }))
      .catch((err: unknown) => deps.log.warn({ err }, 'watch check not scheduled'));
  offer();
  const timer = setInterval(() => {
    if (deps.queue.isRunning()) offer();
    else clearInterval(timer);
  }, seconds * 1000);
  timer.unref();
}
