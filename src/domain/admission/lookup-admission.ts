// Every fetch the service makes on a caller's behalf before a charge is known (a handle or channel URL resolved, a
// direct media URL probed, a listing page, a video's metadata) passes one admission step, in this order:
// 1. the account's free allowance (FREE_LOOKUPS_PER_10_MIN), unless the caller pays for what the fetch is for;
// 2. the account's share of free fetches in flight (LOOKUPS_IN_FLIGHT_PER_ACCOUNT), so a burst cannot fan out (a
//    paying caller's fetches are bounded by its credits, its unpaid-lookup count and the shared budget; capping them
//    refused a paid burst that the extraction queue's own share already paces);
// 3. the cluster's shared egress budget (LOOKUP_EGRESS_PER_MINUTE), counted in Postgres so it holds across instances.
// A watch's scheduled check takes no free lookup (it is paced by WATCHES_PER_ACCOUNT and WATCH_MIN_INTERVAL_SECONDS), but
// waits while the account's unpaid lookups are spent, and takes the shared budget.
// Each refusal is RATE_LIMITED with a retry time.
//
// A paying caller's lookup takes no free lookup because its request is expected to pay. It is tied to that request
// (forRequest, opened by every procedure call and batch item): when the request ends having paid nothing (no charge,
// no credits still held for it: an error, a 400 after the lookup, a stored result answered free), each of its paying
// lookups counts against the allowance under its own counter (`unpaid`), checked before the next paying lookup, else
// 1 credit would buy unlimited lookups. Until it ends, a request with a paying lookup is counted as open, and the
// balance must cover every open one at the operation's price, so a burst of requests cannot all pass on the same
// credit before the first has ended: those the balance does not cover take free lookups instead. Open requests are
// counted in Postgres, so they are the account's across instances (in short windows: a process that dies with
// requests open over-counts them for two windows at most, the safe side); fetches in flight are counted per process.
import { ServiceError } from '../errors.ts';
import { allowanceSpent, FREE_LOOKUP_WINDOW_MS, takeFreeLookup } from './free-lookups.ts';

const EGRESS_WINDOW_MS = 60_000;
const IN_FLIGHT_RETRY_SECONDS = 1;
/** Listing pages pending (listings under way, batches not yet charged) are short-lived: retry soon. */
const PENDING_RETRY_SECONDS = 5;

export interface LookupCounters {
  /** Counts one lookup for the account in the window starting at `windowStart`; the window's count including it. */
  account(accountId: string, windowStart: Date): Promise<number>;
  /** Counts one fetch against the cluster's budget for the window starting at `windowStart`; the count including it. */
  cluster(windowStart: Date): Promise<number>;
  /** Counts `add` unpaid lookups of a paying caller (0: reads), the window's count of them; the count. */
  unpaid(accountId: string, windowStart: Date, add: number): Promise<number>;
  /** Whether the request has paid: charged net of refunds, or credits still held for its work. */
  requestPaid(accountId: string, requestId: string): Promise<boolean>;
  /** Listing pages of the account's batches still open with no video charged (a video running may yet fail): unpaid so far. */
  openBatchPages(accountId: string): Promise<number>;
  /**
   * Adds `delta` (0: reads) to the pages of the account's batch listings under way counted in the window starting at
   * `windowStart`; the count of that window and the one before it.
   */
  listingPages(accountId: string, windowStart: Date, delta: number): Promise<number>;
  /**
   * Adds `delta` (0: reads) to the credits claimed by the account's covered listings under way, counted in the window
   * starting at `windowStart`; the claims of that window and the one before it.
   */
  listingClaims(accountId: string, windowStart: Date, delta: number): Promise<number>;
  /**
   * Adds `delta` (0: reads) to the account's open paying requests counted in the window starting at `windowStart`;
   * the count of that window and the one before it.
   */
  openPaid(accountId: string, windowStart: Date, delta: number): Promise<number>;
}

/** Open paying requests and listings under way are counted in windows this long: a dead process's count is gone after two. */
export const OPEN_REQUEST_WINDOW_MS = 120_000;

/** Ends an admitted fetch: frees its slot. */
export type AdmissionRelease = () => Promise<void>;

export interface LookupLimits {
  freePer10Min: number;
  inFlightPerAccount: number;
  /** 0: no shared budget. */
  egressPerMinute: number;
}

/** A paying caller's lookup: the request expected to pay for it, and whether the balance covers it. */
export interface PaidLookup {
  requestId: string;
  /** Whether the balance covers `requests` open paying requests at the operation's price (this one included). */
  covers(requests: number): Promise<boolean>;
}

/**
 * `free`: the fetch takes one of the account's free lookups (the caller is not known to pay for what follows).
 * `payer`: a paying caller's lookup, settled with its request (a free lookup when the balance does not cover it).
 * `batch`: a page (or handle) of a batch's listing, paid by the videos it lists (create-batch checks the balance
 * covers one, or takes a free lookup). Each page counts as unpaid before it is fetched: while the listing runs (in
 * Postgres, so a burst of listings sent at once sees every other's pages), then as the batch's own until one of its
 * videos is charged (one running may still fail uncharged); a listing that ends with no batch (refused, failed) and a batch that ends with no
 * video charged (cancelled before any ran) count their pages as unpaid lookups. So no listing buys more free pages
 * than the allowance, however many are sent at once, created and cancelled, or left queued.
 * `scheduled`: a fetch the service makes on its own schedule for the account (a watch's check), bounded by the
 * schedule's own limits (watches per account, pages per check, the shortest interval): it takes no free lookup, waits
 * while the account's unpaid lookups are spent, and takes the shared egress budget.
 */
export type AdmitOptions = { free: true } | { payer: PaidLookup } | { batch: BatchListing } | { scheduled: true };

/** A batch's listing under way (openListing): the windows its admitted pages were counted in, one per page. */
export interface BatchListing {
  readonly accountId: string;
  readonly counted: Date[];
  /**
   * Whether the balance covers every video the listing may list, together with every other covered listing of the
   * account under way (claimListing, before its first page): its pages are then expected to be paid, and neither they
   * nor other listings' under way refuse it (open batches' not yet charged still do). An uncovered listing counts every
   * listing's pages under way, its own as unpaid lookups, since a refusal leaves them so.
   */
  covered: boolean;
  /** The credits claimed for a covered listing, and the window they were counted in. */
  claim?: { credits: number; window: Date };
}
type UnpaidOptions = Exclude<AdmitOptions, { payer: PaidLookup }>;

/** A request's paying lookups, counted when it ends. */
interface OpenRequest {
  accountId: string;
  lookups: number;
  /** Counted among the account's open paying requests (a lookup of it is admitted, or being admitted). */
  open: boolean;
  /** The open-request window it was counted in. */
  openedIn?: Date;
}

/** The admission step; one per process (fetches in flight are counted here, the rest in Postgres). */
export class LookupAdmission {
  readonly #inFlight = new Map<string, number>();
  /** Shared fetches admitted and not ended, by key: how many. */
  readonly #fetching = new Map<string, number>();
  /** Shared fetches being admitted, by key. */
  readonly #admitting = new Map<string, Promise<AdmissionRelease>>();
  /** Requests open in this process (forRequest), by request id. */
  readonly #requests = new Map<string, OpenRequest>();
  readonly #counters: LookupCounters;
  readonly #limits: LookupLimits;
  readonly #now: () => number;

  constructor(counters: LookupCounters, limits: LookupLimits, now: () => number = Date.now) {
    this.#counters = counters;
    this.#limits = limits;
    this.#now = now;
  }

  /**
   * Admits one fetch or throws RATE_LIMITED; the caller must call the returned release when the fetch ends.
   * `fetchKey` names a fetch that identical requests share (the queue's key for a video's metadata): while one is
   * admitted and not ended in this process, another asking for it joins it, admitted without counting anything,
   * since YouTube is asked once.
   */
  async admit(accountId: string, opts: AdmitOptions, fetchKey?: string): Promise<AdmissionRelease> {
    if (fetchKey && this.#fetching.has(fetchKey)) return async () => {};
    // A fetch still being admitted is joined too once admitted (its admission takes a few database round trips);
    // if it is refused, this one is admitted on its own.
    const admitting = fetchKey ? this.#admitting.get(fetchKey) : undefined;
    if (
      admitting &&
      (await admitting.then(
        () => true,
        () => false,
      )) &&
      this.#fetching.has(fetchKey!)
    )
      return async () => {};
    const pending = 'payer' in opts ? this.#admitPaying(accountId, opts.payer) : this.#admit(accountId, opts);
    if (!fetchKey) return pending;
    if (!this.#admitting.has(fetchKey)) {
      this.#admitting.set(fetchKey, pending);
      void pending.then(
        () => this.#admitting.get(fetchKey) === pending && this.#admitting.delete(fetchKey),
        () => this.#admitting.get(fetchKey) === pending && this.#admitting.delete(fetchKey),
      );
    }
    const release = await pending;
    this.#fetching.set(fetchKey, (this.#fetching.get(fetchKey) ?? 0) + 1);
    let ended = false;
    return async () => {
      if (ended) return;
      ended = true;
      const left = (this.#fetching.get(fetchKey) ?? 1) - 1;
      if (left <= 0) this.#fetching.delete(fetchKey);
      else this.#fetching.set(fetchKey, left);
      await release();
    };
  }

  async #admit(accountId: string, opts: UnpaidOptions): Promise<AdmissionRelease> {
    if ('batch' in opts) return this.#admitListingPage(accountId, opts.batch);
    const free = 'free' in opts;
    if (free) await this.takeFree(accountId);
    else await this.#checkUnpaid(accountId);
    const freeSlot = free ? this.#takeSlot(accountId) : () => {};
    try {
      await this.#takeEgress();
    } catch (err) {
      freeSlot();
      throw err;
    }
    let ended = false;
    return async () => {
      if (ended) return;
      ended = true;
      freeSlot();
    };
  }

  /**
   * A listing's page: counted among the listings' pages under way before the account's unpaid lookups are read, so
   * concurrent listings each see the pages counted before theirs; taken back when refused.
   */
  async #admitListingPage(accountId: string, listing: BatchListing): Promise<AdmissionRelease> {
    if (listing.accountId !== accountId) throw new Error('A batch listing admits pages for its own account only');
    const window = this.#openWindow();
    const listed = await this.#counters.listingPages(accountId, window, 1);
    // The count read is of this window and the last: the listing's own pages among it are those counted in them.
    const since = window.getTime() - OPEN_REQUEST_WINDOW_MS;
    const own = listing.counted.filter((w) => w.getTime() >= since).length;
    const others = Math.max(0, listed - 1 - own);
    try {
      // A covered listing's pages and those of the other covered ones are paid (their claims fit the balance); an
      // uncovered one's would be refused: count them all for an uncovered listing, only open batches' for a covered one.
      const pending = (listing.covered ? 0 : others) + (await this.#counters.openBatchPages(accountId));
      await this.#checkUnpaid(accountId, pending, listing.covered ? 0 : own);
      await this.#takeEgress();
    } catch (err) {
      await this.#counters.listingPages(accountId, window, -1).catch(() => 0);
      throw err;
    }
    listing.counted.push(window);
    return async () => {};
  }

  /** Opens a batch's listing: pass it as `{ batch }` for each of its pages, then end it with endListing. */
  openListing(accountId: string): BatchListing {
    return { accountId, counted: [], covered: false };
  }

  /**
   * Claims `credits` of `balance` for a listing (every video it may list): covered if the balance covers them on top of
   * the claims of the account's other covered listings under way, counted in Postgres first so that a burst of
   * listings sent at once to any instance sees every claim before its own. An uncovered listing claims nothing.
   */
  async claimListing(listing: BatchListing, credits: number, balance: number): Promise<boolean> {
    const window = this.#openWindow();
    const claimed = await this.#counters.listingClaims(listing.accountId, window, credits);
    listing.covered = claimed <= balance;
    if (listing.covered) listing.claim = { credits, window };
    else await this.#counters.listingClaims(listing.accountId, window, -credits).catch(() => 0);
    return listing.covered;
  }

  /**
   * Ends a listing: its pages are no longer under way. `held`: the batch created holds them (batches.listing_pages,
   * stored before this is called); otherwise they count as unpaid lookups first (the safe order: counted twice for a
   * moment, never not at all).
   */
  async endListing(listing: BatchListing, held: boolean): Promise<void> {
    const windows = listing.counted.splice(0);
    const claim = listing.claim;
    listing.claim = undefined;
    if (claim) await this.#counters.listingClaims(listing.accountId, claim.window, -claim.credits).catch(() => 0);
    if (!held) await this.countUnpaid(listing.accountId, windows.length).catch(() => {});
    const byWindow = new Map<number, number>();
    for (const w of windows) byWindow.set(w.getTime(), (byWindow.get(w.getTime()) ?? 0) + 1);
    for (const [at, n] of byWindow)
      await this.#counters.listingPages(listing.accountId, new Date(at), -n).catch(() => 0);
  }

  /**
   * Runs `work` as one request whose paying lookups are settled when it ends: counted as unpaid unless the request
   * has paid. Every procedure call and batch item runs in one; a request already open is not opened again.
   */
  async forRequest<T>(accountId: string, requestId: string, work: () => Promise<T>): Promise<T> {
    if (this.#requests.has(requestId)) return work();
    this.#requests.set(requestId, { accountId, lookups: 0, open: false });
    try {
      return await work();
    } finally {
      await this.#settle(requestId);
    }
  }

  async #admitPaying(accountId: string, payer: PaidLookup): Promise<AdmissionRelease> {
    await this.#checkUnpaid(accountId);
    const found = this.#requests.get(payer.requestId);
    const request = found?.accountId === accountId ? found : undefined;
    // The request is counted open before the balance is read, so concurrent requests each see the others (each
    // upsert answers the count including itself); a request's second lookup is for the same operation, paid once.
    const opened = !request?.open;
    const openedIn = (!opened && request?.openedIn) || this.#openWindow();
    if (request && opened) {
      request.open = true;
      request.openedIn = openedIn;
    }
    const undo = async () => {
      if (!opened) return;
      // Another lookup of the request admitted meanwhile keeps it open and counted: its end takes the count back.
      if (request?.lookups) return;
      if (request) request.open = false;
      await this.#counters.openPaid(accountId, openedIn, -1).catch(() => 0);
    };
    let covered: boolean;
    try {
      const open = await this.#counters.openPaid(accountId, openedIn, opened ? 1 : 0);
      covered = await payer.covers(open);
      if (covered) await this.#takeEgress();
    } catch (err) {
      await undo();
      throw err;
    }
    if (!covered) {
      await undo();
      return this.#admit(accountId, { free: true });
    }
    if (request) {
      request.lookups++;
      return async () => {};
    }
    // No request to settle it with (a path that opened none): counted as unpaid now, the safe side.
    await this.#counters.unpaid(accountId, this.#windowStart(), 1).catch(() => 0);
    let ended = false;
    return async () => {
      if (ended) return;
      ended = true;
      await this.#counters.openPaid(accountId, openedIn, -1).catch(() => 0);
    };
  }

  /** Ends a request: its paying lookups count as unpaid unless it paid; then it is no longer open. */
  async #settle(requestId: string): Promise<void> {
    const request = this.#requests.get(requestId);
    this.#requests.delete(requestId);
    // A lookup admitted while another of the request was being undone has lookups but is not open: still settled.
    if (!request || (!request.open && request.lookups === 0)) return;
    try {
      if (request.lookups > 0 && !(await this.#counters.requestPaid(request.accountId, requestId)))
        await this.#counters.unpaid(request.accountId, this.#windowStart(), request.lookups);
    } catch {
      // Settling must not replace the request's own answer with a database error.
    } finally {
      if (request.open && request.openedIn)
        await this.#counters.openPaid(request.accountId, request.openedIn, -1).catch(() => 0);
    }
  }

  #openWindow(): Date {
    const now = this.#now();
    return new Date(now - (now % OPEN_REQUEST_WINDOW_MS));
  }

  /** Takes one of the account's free lookups, or refuses with RATE_LIMITED until its window ends. */
  takeFree(accountId: string): Promise<void> {
    return takeFreeLookup((at) => this.#counters.account(accountId, at), this.#limits.freePer10Min, this.#now());
  }

  /** Runs `fetch` once admitted, freeing its slot when it ends. */
  async run<T>(accountId: string, opts: AdmitOptions, fetch: () => Promise<T>): Promise<T> {
    const release = await this.admit(accountId, opts);
    try {
      return await fetch();
    } finally {
      await release();
    }
  }

  #windowStart(): Date {
    const now = this.#now();
    return new Date(now - (now % FREE_LOOKUP_WINDOW_MS));
  }

  /** Counts `n` lookups that turned out unpaid (a batch's listing pages when it ended having charged nothing). */
  async countUnpaid(accountId: string, n: number): Promise<void> {
    if (n > 0) await this.#counters.unpaid(accountId, this.#windowStart(), n);
  }

  /**
   * A paying caller whose lookups have spent the allowance unpaid (`unpaidToo` more will be if refused: an uncovered
   * listing's own pages) is refused until its window ends; one spent only with `pending` pages (other listings under
   * way, open batches not yet charged) is told to retry in seconds. With no free lookups (0) a paying caller is still
   * admitted until one of its lookups has ended unpaid.
   */
  async #checkUnpaid(accountId: string, pending = 0, unpaidToo = 0): Promise<void> {
    const unpaid = (await this.#counters.unpaid(accountId, this.#windowStart(), 0)) + unpaidToo;
    const limit = Math.max(1, this.#limits.freePer10Min);
    if (unpaid + pending < limit) return;
    if (unpaid >= limit) throw allowanceSpent(this.#limits.freePer10Min, this.#now());
    // Spent only with pages still pending: they stop counting once their batches' videos are charged (or listings end).
    throw new ServiceError(
      'RATE_LIMITED',
      `This account's ${this.#limits.freePer10Min} free lookups for these 10 minutes are taken by ${unpaid} unpaid lookups and ${pending} listing pages of batches being listed or not yet charged; they are released when those batches charge their first video. Retry in ${PENDING_RETRY_SECONDS} s`,
      PENDING_RETRY_SECONDS,
    );
  }

  #takeSlot(accountId: string): () => void {
    const held = this.#inFlight.get(accountId) ?? 0;
    if (held >= this.#limits.inFlightPerAccount) {
      throw new ServiceError(
        'RATE_LIMITED',
        `This account already has ${held} lookups in flight (at most ${this.#limits.inFlightPerAccount}); retry when one ends`,
        IN_FLIGHT_RETRY_SECONDS,
      );
    }
    this.#inFlight.set(accountId, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#inFlight.get(accountId) ?? 1) - 1;
      if (left <= 0) this.#inFlight.delete(accountId);
      else this.#inFlight.set(accountId, left);
    };
  }

  async #takeEgress(): Promise<void> {
    const limit = this.#limits.egressPerMinute;
    if (limit <= 0) return;
    const now = this.#now();
    const windowStart = now - (now % EGRESS_WINDOW_MS);
    const used = await this.#counters.cluster(new Date(windowStart));
    if (used <= limit) return;
    const retryAfter = Math.max(1, Math.ceil((windowStart + EGRESS_WINDOW_MS - now) / 1000));
    throw new ServiceError(
      'RATE_LIMITED',
      `The service's budget of ${limit} upstream lookups a minute is spent for now (shared by every account); stored results still answer. Retry in ${retryAfter} s`,
      retryAfter,
    );
  }
}
