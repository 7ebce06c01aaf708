// Attacks on the open paying requests counted in PostgreSQL (`lookup-open:<account>`): whatever a request does, its
// count must come back to where it was when it ends (never stay up, refusing an honest account, nor go below,
// letting a burst pass on one credit), and its paying lookups must be settled.
import { describe, expect, it } from 'vitest';
import {
  LookupAdmission,
  type LookupCounters,
  OPEN_REQUEST_WINDOW_MS,
} from '../../src/domain/admission/lookup-admission.ts';

function counters(): LookupCounters & { open: Map<string, number>; unpaidCount: Map<string, number> } {
  const open = new Map<string, number>();
  const unpaidCount = new Map<string, number>();
  const free = new Map<string, number>();
  const add = (m: Map<string, number>, key: string, n: number) => {
    m.set(key, (m.get(key) ?? 0) + n);
    return m.get(key)!;
  };
  return {
    open,
    unpaidCount,
    account: async (accountId, start) => add(free, `${accountId}@${start.getTime()}`, 1),
    cluster: async () => 1,
    unpaid: async (accountId, start, n) => add(unpaidCount, `${accountId}@${start.getTime()}`, n),
    requestPaid: async () => false,
    openBatchPages: async () => 0,
    listingPages: async () => 0,
    listingClaims: async () => 0,
    openPaid: async (accountId, start, n) => {
      add(open, `${accountId}@${start.getTime()}`, n);
      const previous = start.getTime() - OPEN_REQUEST_WINDOW_MS;
      return Math.max(
        0,
        (open.get(`${accountId}@${start.getTime()}`) ?? 0) + (open.get(`${accountId}@${previous}`) ?? 0),
      );
    },
  };
}

const limits = { freePer10Min: 5, inFlightPerAccount: 4, egressPerMinute: 0 };
const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

describe('open paying requests under attack', () => {
  it('a request that throws after its paying lookup leaves no open request counted', async () => {
    const c = counters();
    const a = new LookupAdmission(c, limits);
    await expect(
      a.forRequest('acc', 'req_1', async () => {
        await a.admit('acc', { payer: { requestId: 'req_1', covers: async () => true } });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(total(c.open)).toBe(0);
  });

  it('a paying lookup outside any request whose fetch throws leaves no open request counted', async () => {
    const c = counters();
    const a = new LookupAdmission(c, limits);
    await expect(
      a.run('acc', { payer: { requestId: 'req_x', covers: async () => true } }, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(total(c.open)).toBe(0);
  });

  it("a paying lookup naming another account's open request is not settled with it", async () => {
    const c = counters();
    const a = new LookupAdmission(c, limits);
    await a.forRequest('victim', 'req_v', async () => {
      const release = await a.admit('attacker', { payer: { requestId: 'req_v', covers: async () => true } });
      await release();
    });
    // The attacker's lookup is counted unpaid at once (no request of its own), the victim's count is untouched.
    expect([...c.unpaidCount.entries()].filter(([k]) => k.startsWith('victim'))).toEqual([]);
    expect(total(c.open)).toBe(0);
  });

  it('two paying lookups of one request at once, the first not covered: the count ends at 0 and the paid one settles', async () => {
    const c = counters();
    const a = new LookupAdmission(c, limits);
    let firstCovers!: (v: boolean) => void;
    const first = new Promise<boolean>((r) => {
      firstCovers = r;
    });
    await a.forRequest('acc', 'req_1', async () => {
      // The first lookup opens the request and waits on its balance; the second joins the open request, is covered.
      const one = a.admit('acc', { payer: { requestId: 'req_1', covers: () => first } });
      const two = a.admit('acc', { payer: { requestId: 'req_1', covers: async () => true } });
      await two;
      firstCovers(false);
      await one;
    });
    // Never below 0: a negative count lets the next requests pass on credits already promised.
    expect(total(c.open)).toBe(0);
    // The request paid nothing: its covered lookup counts as unpaid.
    expect(total(c.unpaidCount)).toBeGreaterThanOrEqual(1);
  });
  it('two paying lookups of one request at once, the first refused before the second is covered: both settle', async () => {
    const c = counters();
    const a = new LookupAdmission(c, limits);
    let secondCovers!: (v: boolean) => void;
    const second = new Promise<boolean>((r) => {
      secondCovers = r;
    });
    await a.forRequest('acc', 'req_1', async () => {
      const one = a.admit('acc', { payer: { requestId: 'req_1', covers: async () => false } });
      const two = a.admit('acc', { payer: { requestId: 'req_1', covers: () => second } });
      await one;
      secondCovers(true);
      await two;
    });
    expect(total(c.open)).toBe(0);
    expect(total(c.unpaidCount)).toBeGreaterThanOrEqual(1);
  });
});
