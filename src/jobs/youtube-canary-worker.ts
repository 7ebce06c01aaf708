// The scheduled YouTube canary (src/infra/youtube/youtube-canary.ts): every worker instance offers a run each
// YOUTUBE_CANARY_INTERVAL, and pg-boss keeps one per interval across the cluster (a singleton key throttled to the
// interval), so YouTube sees one canary whatever the number of instances. The instance that ran it exports the
// result as gauges: subtext_youtube_canary_ok and subtext_youtube_canary_last_success_timestamp per client and purpose.
import type { Deps } from '../deps.ts';
import { summarizeCanary } from '../infra/youtube/youtube-canary.ts';
import { YOUTUBE_CANARY_QUEUE } from './queues.ts';

const SINGLETON_KEY = 'youtube-canary';

export function youtubeCanaryHandler(deps: Pick<Deps, 'config' | 'youtubeCanary' | 'metrics' | 'log'>) {
  return async () => {
    const run = await deps.youtubeCanary(deps.config.YOUTUBE_CANARY_VIDEOS);
    const at = Date.parse(run.at) / 1000;
    // Every client of the chains in force gets its value each run; a client taken out of a chain leaves the gauge.
    deps.metrics.youtubeCanaryOk.reset();
    for (const s of summarizeCanary(run)) {
      const labels = { client: s.client, purpose: s.purpose };
      deps.metrics.youtubeCanaryOk.set(labels, s.ok ? 1 : 0);
      if (s.ok) deps.metrics.youtubeCanaryLastSuccess.set(labels, at);
    }
    const failed = run.checks.filter((c) => !c.ok);
    if (failed.length)
      deps.log.warn(
        {
          failed: failed.map((c) => `${c.client}/${c.purpose} ${c.videoId}: ${c.outcome} (${c.detail})`),
        },
        'youtube canary: some clients failed',
      );
    else deps.log.info({ checks: run.checks.length }, 'youtube canary: every client answered');
  };
}

/** Offers a run; null when this interval already has one (queued, running or done), on any instance. */
export function offerYoutubeCanary(deps: Pick<Deps, 'config' | 'queue'>): Promise<string | null> {
  return deps.queue.boss.send(
    YOUTUBE_CANARY_QUEUE,
    {},
    { singletonKey: SINGLETON_KEY, singletonSeconds: deps.config.YOUTUBE_CANARY_INTERVAL },
  );
}

/** Offers a run now and every interval; pg-boss drops the offers of an interval that already has one. */
export function scheduleYoutubeCanary(deps: Pick<Deps, 'config' | 'queue' | 'log'>): () => void {
  const offer = () =>
    void offerYoutubeCanary(deps).catch((err: unknown) => deps.log.warn({ err }, 'youtube canary not scheduled'));
  offer();
  const timer = setInterval(offer, deps.config.YOUTUBE_CANARY_INTERVAL * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
