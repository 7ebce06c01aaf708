import type { Deps } from '../../deps.ts';
import type { ListingDeps } from '../../domain/listing/list-videos.ts';

/** The narrow ports the listing verbs use. */
export const listingDeps = (d: Deps): ListingDeps => ({
  lister: d.lister,
  listingCache: d.listingCache,
  ledger: d.ledger,
  dailyAllowance: d.config.DAILY_FREE_CREDITS,
  lookupAdmission: d.lookupAdmission,
});
