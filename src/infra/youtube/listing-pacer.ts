import { ServiceError } from '../../domain/errors.ts';
import { createEgressPacer, type OutcomeKind } from '../../domain/youtube/egress.ts';
import type { EgressOptions } from './create-youtube-source.ts';
import { egressScope } from './youtube-fetch.ts';

type PacedListing = <T>(work: () => Promise<T>) => Promise<T>;

/** Runs listing calls as they come when there is no egress budget, else each through the pacer. */
export function createListingPacer(identities: string[], egress: EgressOptions | undefined): PacedListing {
  const pacer = egress
    ? createEgressPacer(
        egress.store,
        {
          identities,
          budgetPerHour: egress.budgetPerHour,
          cooldownBaseSeconds: egress.cooldownBaseSeconds,
          cooldownMaxSeconds: egress.cooldownMaxSeconds,
        },
        { onOutcome: egress.onOutcome },
      )
    : undefined;

  /** One listing call from one identity with budget left (SERVICE_BUSY when none), counted as the WEB client's. */
  return async function paced<T>(work: () => Promise<T>): Promise<T> {
    if (!pacer) return work();
    const identity = await pacer.take();
    const report = (kind: OutcomeKind, reason?: string) =>
      pacer.report({ client: 'WEB', purpose: 'listing', identity, kind }, reason).catch(() => {});
    try {
      const out = await egressScope.run(identity, work);
      await report('served');
      return out;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      // youtubei.js words HTTP failures as "... status code 429"; a 429 is about the identity and cools it.
      const kind: OutcomeKind = /status code 429\b/.test(message)
        ? 'rate_limited'
        : err instanceof ServiceError && err.code === 'NOT_FOUND'
          ? 'video'
          : 'error';
      await report(kind, message.slice(0, 300));
      throw err;
    }
  };
}
