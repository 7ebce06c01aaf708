// A listing batch cancelled before any of its videos was charged pays its listing pages, as the listing procedures
// would have: the balance covered its videos when it was listed (or it took a free lookup), so without this a caller
// could list and cancel again and again, every page at the operator's cost.
import { chargeCredits, getCredits } from '../credits/credits.ts';
import { isServiceError } from '../errors.ts';
import { LISTING_PAGE_PRICE } from '../pricing/prices.ts';
import type { Stores } from '../stores.ts';
import type { BatchStore } from './ports.ts';

type SettledBatch = NonNullable<Awaited<ReturnType<BatchStore['settleIfDone']>>>;

export interface ListingChargePorts extends Pick<Stores, 'ledger'> {
  dailyAllowance: number;
}

/** Reads of the balance before the pages left count unpaid: each read after the first follows a charge refused. */
const CHARGE_TRIES = 3;

/** Charges a cancelled batch's unpaid listing pages (as many as the account can pay); the pages left unpaid. */
export async function chargeCancelledListing(ports: ListingChargePorts, done: SettledBatch): Promise<number> {
  const pages = done.unpaidListingPages;
  if (pages <= 0 || done.status !== 'cancelled' || !done.listingKind) return pages;
  for (let tries = 0; tries < CHARGE_TRIES; tries++) {
    const { available } = await getCredits(ports, done.accountId, ports.dailyAllowance);
    const paid = Math.min(pages, Math.floor(Math.max(0, available) / LISTING_PAGE_PRICE));
    if (paid === 0) return pages;
    const charge = {
      accountId: done.accountId,
      amount: paid * LISTING_PAGE_PRICE,
      operation: `listing.${done.listingKind}`,
      requestId: done.requestId,
    };
    try {
      await chargeCredits(ports, charge, ports.dailyAllowance);
      return pages - paid;
    } catch (err) {
      // Spent meanwhile: sized again from the balance now.
      if (isServiceError(err) && err.code === 'INSUFFICIENT_CREDITS') continue;
      // The charge may have committed with its answer lost: the ledger says what the batch's own request (its items
      // have theirs) was charged. Should that read fail too, settleBatch counts every page unpaid, the safe side.
      const charged = await ports.ledger.chargedFor(done.accountId, done.requestId);
      return pages - Math.min(pages, Math.floor(charged / LISTING_PAGE_PRICE));
    }
  }
  return pages;
}
