// Every fetch the service makes on a caller's behalf before a charge is known (a handle or channel URL resolved, a
// direct media URL probed, a listing page, a video's metadata) passes one admission step, in this order:
// 1. the account's free allowance (FREE_LOOKUPS_PER_10_MIN), unless the caller pays for what the fetch is for;
// 2. the account's share of free fetches in flight (LOOKUPS_IN_FLIGHT_PER_ACCOUNT), so a burst cannot fan out (a
//    paying caller's fetches are bounded by its credits, its failed-lookup count and the shared budget; capping them
//    refused a paid burst that the extraction queue's own share already paces);
// 3. the cluster's shared egress budget (LOOKUP_EGRESS_PER_MINUTE), counted in Postgres so it holds across instances.
// Each refusal is RATE_LIMITED with a retry time. A paying caller's lookup that fails is never charged: those count
// against the same allowance (under their own counter), else 1 credit would buy unlimited lookups of unknown names.
import { ServiceError } from '../errors.ts';
import { allowanceSpent, FREE_LOOKUP_WINDOW_MS, takeFreeLookup } from './free-lookups.ts';

const EGRESS_WINDOW_MS = 60_000;
const IN_FLIGHT_RETRY_SECONDS = 1;

export interface LookupCounters {
  /** Counts one lookup for the account in the window starting at `windowStart`; the window's count including it. */
  account(accountId: string, windowStart: Date): Promise<number>;
  /** Counts one fetch against the cluster's budget for the window starting at `windowStart`; the count including it. */
  cluster(windowStart: Date): Promise<number>;
  /** Counts one failed lookup of a paying caller (`add`), or reads the window's count of them; the count. */
  unpaid(accountId: string, windowStart: Date, add: boolean): Promise<number>;
}

/** Ends an admitted fetch: frees its slot; `failed` (the fetch threw, so nothing will be charged for it). */
export type AdmissionRelease = (failed?: boolean) => Promise<void>;

export interface LookupLimits {
  freePer10Min: number;
  inFlightPerAccount: number;
  /** 0: no shared budget. */
  egressPerMinute: number;
}

/** `free`: the fetch takes one of the account's free lookups (the caller is not known to pay for what follows). */
export interface AdmitOptions {
  free: boolean;
}

/** The admission step; one per process (fetches in flight are counted here, the rest in Postgres). */
export class LookupAdmission {
  readonly #inFlight = new Map<string, number>();
  readonly #counters: LookupCounters;
  readonly #limits: LookupLimits;
  readonly #now: () => number;

  constructor(counters: LookupCounters, limits: LookupLimits, now: () => number = Date.now) {
    this.#counters = counters;
    this.#limits = limits;
    this.#now = now;
  }

  /** Admits one fetch or throws RATE_LIMITED; the caller must call the returned release when the fetch ends. */
  async admit(accountId: string, opts: AdmitOptions): Promise<AdmissionRelease> {
    if (opts.free) await this.takeFree(accountId);
    else await this.#checkUnpaid(accountId);
    const freeSlot = opts.free ? this.#takeSlot(accountId) : () => {};
    try {
      await this.#takeEgress();
    } catch (err) {
      freeSlot();
      throw err;
    }
    let ended = false;
    return async (failed = false) => {
      if (ended) return;
      ended = true;
      freeSlot();
      // Counting must not replace the fetch's own error with a database one.
      if (failed && !opts.free) await this.#counters.unpaid(accountId, this.#windowStart(), true).catch(() => 0);
    };
  }

  /** Takes one of the account's free lookups, or refuses with RATE_LIMITED until its window ends. */
  takeFree(accountId: string): Promise<void> {
    return takeFreeLookup((at) => this.#counters.account(accountId, at), this.#limits.freePer10Min, this.#now());
  }

  /** Runs `fetch` once admitted, freeing its slot when it ends. */
  async run<T>(accountId: string, opts: AdmitOptions, fetch: () => Promise<T>): Promise<T> {
    const release = await this.admit(accountId, opts);
    let failed = true;
    try {
      const value = await fetch();
      failed = false;
      return value;
    } finally {
      await release(failed);
    }
  }

  #windowStart(): Date {
    const now = this.#now();
    return new Date(now - (now % FREE_LOOKUP_WINDOW_MS));
  }

  /** A paying caller whose failed lookups have spent the allowance is refused until its window ends. */
  async #checkUnpaid(accountId: string): Promise<void> {
    const used = await this.#counters.unpaid(accountId, this.#windowStart(), false);
    if (used < this.#limits.freePer10Min) return;
    throw allowanceSpent(this.#limits.freePer10Min, this.#now());
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
