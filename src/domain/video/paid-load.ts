// A paid operation on a video that is not stored yet asks YouTube for its metadata before it can price the work.
// That request spends the cluster's shared YouTube budget, so it is made only for a caller who can pay the
// operation's minimum price, or else it takes one of the caller's free lookups (FREE_LOOKUPS_PER_10_MIN), as
// GET /videos/{id} does: a caller at balance 0 cannot spend the budget every other account depends on.
import { assertAffordable } from '../credits/charged-operation.ts';
import { isServiceError } from '../errors.ts';
import type { SourceVideo } from '../ports.ts';
import type { Settings } from '../settings.ts';
import type { Stores } from '../stores.ts';
import { type FreeLookupCounter, takeFreeLookup } from './free-lookups.ts';
import { loadVideo, type LoadVideoPorts } from './load-video.ts';

export interface PaidLoadPorts extends LoadVideoPorts, Pick<Stores, 'ledger'> {
  freeLookups: FreeLookupCounter;
  config: LoadVideoPorts['config'] & Pick<Settings, 'DAILY_FREE_CREDITS' | 'FREE_LOOKUPS_PER_10_MIN'>;
}

/**
 * loadVideo for a paid operation: when YouTube must be asked, the caller's balance must cover `minPrice` (the least
 * the operation can cost), else the fetch takes a free lookup (a stored result of the video may still be free) and
 * is refused with RATE_LIMITED once those are used.
 */
export function loadVideoForPayer(
  ports: PaidLoadPorts,
  accountId: string,
  videoId: string,
  minPrice: number,
): Promise<SourceVideo> {
  return loadVideo(ports, videoId, {
    accountId,
    beforeFetch: async () => {
      try {
        await assertAffordable(ports, accountId, minPrice, ports.config.DAILY_FREE_CREDITS);
      } catch (err) {
        if (!isServiceError(err) || err.code !== 'INSUFFICIENT_CREDITS') throw err;
        await takeFreeLookup(ports, accountId, ports.config.FREE_LOOKUPS_PER_10_MIN);
      }
    },
  });
}
