// A paid operation on a video that is not stored yet asks YouTube for its metadata before it can price the work.
// That request passes the lookup admission (src/domain/admission/): a caller who can pay the operation's minimum
// price takes no free lookup (the lookup is tied to the request, and counts as unpaid if the request ends without
// paying), any other takes one of its FREE_LOOKUPS_PER_10_MIN, as GET /videos/{id} does, so a caller at balance 0
// cannot spend the budget every other account depends on.
import type { LookupAdmission } from '../admission/lookup-admission.ts';
import { coversPrice } from '../admission/covers-price.ts';
import type { SourceVideo } from '../ports.ts';
import type { Settings } from '../settings.ts';
import type { Stores } from '../stores.ts';
import { loadVideo, type LoadVideoPorts } from './load-video.ts';

export interface PaidLoadPorts extends LoadVideoPorts, Pick<Stores, 'ledger'> {
  lookupAdmission: LookupAdmission;
  config: LoadVideoPorts['config'] & Pick<Settings, 'DAILY_FREE_CREDITS'>;
}

/**
 * loadVideo for a paid operation: when YouTube must be asked, the fetch is admitted as the request's paying lookup
 * (a free one when the balance does not cover `minPrice`, the least the operation can cost, for each of the
 * account's paying lookups still open; a stored result of the video may still be free).
 */
export function loadVideoForPayer(
  ports: PaidLoadPorts,
  payer: { accountId: string; requestId: string },
  videoId: string,
  minPrice: number,
): Promise<SourceVideo> {
  const { accountId, requestId } = payer;
  return loadVideo(ports, videoId, {
    accountId,
    beforeFetch: (fetchKey) =>
      ports.lookupAdmission.admit(
        accountId,
        {
          payer: {
            requestId,
            covers: (requests) => coversPrice(ports, accountId, requests * minPrice, ports.config.DAILY_FREE_CREDITS),
          },
        },
        fetchKey,
      ),
  });
}
