import type { Deps } from '../../deps.ts';
import type { ListingPorts } from '../../domain/listing/list-videos.ts';

/** The narrow ports the listing verbs use. */
export const listingPorts = (d: Deps): ListingPorts => ({
  lister: d.lister,
  listingCache: d.listingCache,
  ledger: d.ledger,
  dailyAllowance: d.config.DAILY_FREE_CREDITS,
  lookupAdmission: d.lookupAdmission,
});
