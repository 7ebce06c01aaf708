// The lookup admission's rules on their own (src/domain/admission/), with counters shared the way PostgreSQL shares
// them between instances: what one instance's memory cannot see, several instances on one database must still hold.
import { describe, expect, it } from 'vitest';
import { FREE_LOOKUP_WINDOW_MS } from '../../src/domain/admission/free-lookups.ts';
import {
  LookupAdmission,
  type LookupCounters,
  OPEN_REQUEST_WINDOW_MS,
  type PaidLookup,
} from '../../src/domain/admission/lookup-admission.ts';

/** The counters of one database: every instance given these sees the same counts. */
function sharedCounters(): LookupCounters & { free: Map<string, number>; unpaidCount: Map<string, number> } {
  // By account and window, as the rate-counter rows are.
  const free = new Map<string, number>();
  const unpaidCount = new Map<string, number>();
  const open = new Map<string, number>();
  const listing = new Map<string, number>();
  const claims = new Map<string, number>();
  let cluster = 0;
  const add = (m: Map<string, number>, key: string, n: number) => {
    m.set(key, (m.get(key) ?? 0) + n);
    return m.get(key)!;
  };
  /** Under way: this window's count after adding `n`, plus the last window's. */
  const underWay = (m: Map<string, number>, accountId: string, start: Date, n: number) => {
    add(m, `${accountId}@${start.getTime()}`, n);
    const previous = start.getTime() - OPEN_REQUEST_WINDOW_MS;
    return (m.get(`${accountId}@${start.getTime()}`) ?? 0) + (m.get(`${accountId}@${previous}`) ?? 0);
  };
  return {
    free,
    unpaidCount,
    account: async (accountId, start) => add(free, `${accountId}@${start.getTime()}`, 1),
    cluster: async () => ++cluster,
    unpaid: async (accountId, start, n) => add(unpaidCount, `${accountId}@${start.getTime()}`, n),
    requestPaid: async () => false,
    openBatchPages: async () => 0,
    listingPages: async (accountId, start, n) => underWay(listing, accountId, start, n),
    listingClaims: async (accountId, start, n) => underWay(claims, accountId, start, n),
    openPaid: async (accountId, start, n) => underWay(open, accountId, start, n),
  };
}

const limits = (freePer10Min: number) => ({ freePer10Min, inFlightPerAccount: 4, egressPerMinute: 0 });

/** A caller whose balance covers one open request at the operation's price (1 credit). */
const oneCredit = (requestId: string): PaidLookup => ({ requestId, covers: async (requests) => requests <= 1 });

/** Admits one paying lookup inside request `id` on `a` and holds the request open until `end` resolves. */
function openRequest(a: LookupAdmission, id: string, end: Promise<void>) {
  let admitted!: (v: string) => void;
  const outcome = new Promise<string>((r) => {
    admitted = r;
  });
  const done = a
    .forRequest('acc', id, async () => {
      try {
        await a.admit('acc', { payer: oneCredit(id) });
        admitted('admitted');
      } catch (err) {
        admitted((err as { code?: string }).code ?? 'error');
      }
      await end;
    })
    .catch(() => {});
  return { outcome, done };
}

describe('lookup admission rules', () => {
  it('FREE_LOOKUPS_PER_10_MIN=0 (no free lookups) still admits a caller whose balance covers the operation', async () => {
    const counters = sharedCounters();
    const a = new LookupAdmission(counters, limits(0));
    await expect(a.admit('acc', { payer: oneCredit('req_1') })).resolves.toBeTypeOf('function');
    // A free lookup is refused, as configured.
    await expect(a.admit('acc', { free: true })).rejects.toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('FREE_LOOKUPS_PER_10_MIN=0: once a paying caller’s lookup ended unpaid, its next one is refused', async () => {
    const counters = sharedCounters();
    const a = new LookupAdmission(counters, limits(0));
    await a.forRequest('acc', 'req_1', async () => {
      await a.admit('acc', { payer: oneCredit('req_1') });
    });
    expect([...counters.unpaidCount.values()]).toEqual([1]);
    await expect(a.admit('acc', { payer: oneCredit('req_2') })).rejects.toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('open paying requests are the account’s, not one instance’s: 3 instances, 1 credit, 1 free lookup: one pays, one is free, one is refused', async () => {
    const counters = sharedCounters();
    const instances = [0, 1, 2].map(() => new LookupAdmission(counters, limits(1)));
    let end!: () => void;
    const ended = new Promise<void>((r) => {
      end = r;
    });
    // One instance: the second open request takes the free lookup, the third is refused (the balance covers one).
    const alone = new LookupAdmission(sharedCounters(), limits(1));
    const single = [0, 1, 2].map((i) => openRequest(alone, `req_s${i}`, ended));
    const many = instances.map((a, i) => openRequest(a, `req_m${i}`, ended));
    const singleOutcomes = await Promise.all(single.map((r) => r.outcome));
    const manyOutcomes = await Promise.all(many.map((r) => r.outcome));
    end();
    await Promise.all([...single, ...many].map((r) => r.done));
    expect(singleOutcomes.sort()).toEqual(['RATE_LIMITED', 'admitted', 'admitted']);
    expect(manyOutcomes.sort()).toEqual(['RATE_LIMITED', 'admitted', 'admitted']);
  });

  it('at the window’s edge: the allowance is per fixed window (at most twice it in any 10 minutes), Retry-After to the edge', async () => {
    let now = 7 * FREE_LOOKUP_WINDOW_MS - 1;
    const a = new LookupAdmission(sharedCounters(), limits(2), () => now);
    for (let i = 0; i < 2; i++) await a.admit('acc', { free: true });
    await expect(a.admit('acc', { free: true })).rejects.toMatchObject({ code: 'RATE_LIMITED', retryAfter: 1 });
    now += 1;
    for (let i = 0; i < 2; i++) await a.admit('acc', { free: true });
    await expect(a.admit('acc', { free: true })).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      retryAfter: FREE_LOOKUP_WINDOW_MS / 1000,
    });
  });

  it('a paying request opened before the edge and ended unpaid after it counts in the new window', async () => {
    let now = 7 * FREE_LOOKUP_WINDOW_MS - 1;
    const a = new LookupAdmission(sharedCounters(), limits(1), () => now);
    await a.forRequest('acc', 'req_1', async () => {
      await a.admit('acc', { payer: oneCredit('req_1') });
      now += 2;
    });
    await expect(a.admit('acc', { payer: oneCredit('req_2') })).rejects.toMatchObject({ code: 'RATE_LIMITED' });
  });

  it("a batch listing's own pages: a covered one is not refused by them; an uncovered one counts them unpaid, refused until the window ends", async () => {
    const now = 5 * FREE_LOOKUP_WINDOW_MS + 1_000;
    const a = new LookupAdmission(sharedCounters(), limits(2), () => now);
    const covered = a.openListing('acc');
    expect(await a.claimListing(covered, 10, 10)).toBe(true);
    for (let i = 0; i < 4; i++) await a.admit('acc', { batch: covered });
    // Its pages under way refuse another listing, which may retry in seconds (they clear as the batch starts).
    const other = a.openListing('acc');
    await expect(a.admit('acc', { batch: other })).rejects.toMatchObject({ code: 'RATE_LIMITED', retryAfter: 5 });
    await a.endListing(covered, true);
    const uncovered = a.openListing('acc');
    await a.admit('acc', { batch: uncovered });
    await a.admit('acc', { batch: uncovered });
    await expect(a.admit('acc', { batch: uncovered })).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      retryAfter: (FREE_LOOKUP_WINDOW_MS - 1_000) / 1000,
    });
    await a.endListing(uncovered, false);
    // Ended unpaid, its 2 pages spend the allowance for the window.
    await expect(a.admit('acc', { batch: a.openListing('acc') })).rejects.toMatchObject({
      retryAfter: (FREE_LOOKUP_WINDOW_MS - 1_000) / 1000,
    });
  });

  it('covered listings claim the balance together: a burst on one balance covers only as many as it pays for, each claim back when its listing ends', async () => {
    const now = 5 * FREE_LOOKUP_WINDOW_MS + 1_000;
    const counters = sharedCounters();
    // Two instances on one database, a balance of 2, listings of 1 video at 1 credit each.
    const [a, b] = [
      new LookupAdmission(counters, limits(3), () => now),
      new LookupAdmission(counters, limits(3), () => now),
    ];
    const listings = Array.from({ length: 6 }, () => a.openListing('acc'));
    const covered = await Promise.all(listings.map((l, i) => (i % 2 ? b : a).claimListing(l, 1, 2)));
    expect(covered.filter(Boolean)).toHaveLength(2);
    for (const [i, l] of listings.entries()) await (i % 2 ? b : a).endListing(l, false);
    expect(await a.claimListing(a.openListing('acc'), 2, 2)).toBe(true);
  });
});
