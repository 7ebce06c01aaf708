// Attacks on joining a fetch still being admitted (same fetchKey): an account joins another's admission only when it
// succeeds (YouTube is asked once, nothing more reaches it); when that admission is refused, the joiner is admitted
// on its own, its own allowance counted.
import { describe, expect, it } from 'vitest';
import { LookupAdmission, type LookupCounters } from '../../src/domain/admission/lookup-admission.ts';

function counters(gate: Promise<void>): LookupCounters & { free: Map<string, number> } {
  const free = new Map<string, number>();
  return {
    free,
    // The first account's free lookup waits on `gate`, so another request arrives while it is being admitted.
    account: async (accountId) => {
      if (accountId === 'slow') await gate;
      const n = (free.get(accountId) ?? 0) + 1;
      free.set(accountId, n);
      return n;
    },
    cluster: async () => 1,
    unpaid: async () => 0,
    requestPaid: async () => false,
    openBatchPages: async () => 0,
    listingPages: async () => 0,
    listingClaims: async () => 0,
    openPaid: async () => 0,
  };
}

describe('joining a fetch being admitted', () => {
  it("another account's admission refused: the joiner is counted on its own, and refused once its allowance is spent", async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => {
      open = r;
    });
    const c = counters(gate);
    const a = new LookupAdmission(c, { freePer10Min: 1, inFlightPerAccount: 4, egressPerMinute: 0 });
    // The victim has spent its one free lookup already; the slow account has too.
    await (await a.admit('joiner', { free: true }))();
    c.free.set('slow', 1);
    const slow = a.admit('slow', { free: true }, 'meta:abc');
    const joined = a.admit('joiner', { free: true }, 'meta:abc');
    open();
    await expect(slow).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    await expect(joined).rejects.toMatchObject({ code: 'RATE_LIMITED' });
  });

  it("another account's admission admitted: the joiner shares it and counts nothing (one fetch reaches YouTube)", async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => {
      open = r;
    });
    const c = counters(gate);
    const a = new LookupAdmission(c, { freePer10Min: 5, inFlightPerAccount: 4, egressPerMinute: 0 });
    const slow = a.admit('slow', { free: true }, 'meta:abc');
    const joined = a.admit('joiner', { free: true }, 'meta:abc');
    open();
    // The shared fetch is under way (ends after both are admitted, as a fetch from YouTube does).
    const [endSlow, endJoined] = await Promise.all([slow, joined]);
    await endJoined();
    await endSlow();
    expect(c.free.get('joiner')).toBeUndefined();
  });
});
