// Money is exact under concurrency: one conditional UPDATE per charge, refunds once, the ledger explains the balance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Sql } from '../../db/client.ts';
import { isServiceError } from '../../src/domain/errors.ts';
import { createTestDatabase } from '../support/databases.ts';
import { chargeCredits, ensureAccount, getCredits, grantCredits, refundCharge } from '../support/stores.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: Sql;
beforeAll(async () => {
  database = await createTestDatabase();
  sql = connect(database.url, { max: 20 }).sql;
});
afterAll(async () => {
  await sql?.end();
  await database?.drop();
});

let n = 0;
async function account(purchased: number): Promise<string> {
  const { id } = await ensureAccount(sql, `money${++n}@example.com`);
  if (purchased > 0) await grantCredits(sql, id, purchased);
  return id;
}

const charge = (accountId: string, amount: number, allowance: number, now?: Date) =>
  chargeCredits(
    sql,
    { accountId, amount, operation: 'test', videoId: null, requestId: `req_test${n}` },
    allowance,
    now,
  );

async function settle<T>(promises: Promise<T>[]) {
  const results = await Promise.allSettled(promises);
  const ok = results
    .filter((r): r is PromiseFulfilledResult<Awaited<T>> => r.status === 'fulfilled')
    .map((r) => r.value);
  const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason);
  return { ok, failed };
}

async function ledger(accountId: string) {
  const [row] = await sql<{ delta: number; free: number; purchased: number; charges: number; refunds: number }[]>`
    select coalesce(sum(delta), 0)::int as delta, coalesce(sum(free_delta), 0)::int as free,
           coalesce(sum(purchased_delta), 0)::int as purchased,
           count(*) filter (where kind = 'charge')::int as charges, count(*) filter (where kind = 'refund')::int as refunds
    from credit_ledger where account_id = ${accountId} and kind <> 'grant'`;
  return row!;
}

describe('charging under concurrency', () => {
  it('200 concurrent 1-credit charges on a balance of 50 (20 free + 30 purchased): exactly 50 succeed, balance 0', async () => {
    const allowance = 20;
    const id = await account(30);
    const before = await getCredits(sql, id, allowance);
    expect(before.balance).toBe(50);

    const { ok, failed } = await settle(Array.from({ length: 200 }, () => charge(id, 1, allowance)));
    expect(ok).toHaveLength(50);
    expect(new Set(ok).size).toBe(50); // 50 distinct ledger rows
    expect(failed).toHaveLength(150);
    for (const err of failed) {
      expect(isServiceError(err) && err.code).toBe('INSUFFICIENT_CREDITS');
    }

    const after = await getCredits(sql, id, allowance);
    expect(after).toMatchObject({ balance: 0, freeRemaining: 0, purchasedBalance: 0 });
    const l = await ledger(id);
    expect(l).toMatchObject({ delta: after.balance - before.balance, free: -20, purchased: -30, charges: 50 });
  });

  it('mixed amounts never overdraw, and the ledger sums to the balance change', async () => {
    const allowance = 7;
    const id = await account(40);
    const amounts = Array.from({ length: 120 }, (_, i) => 1 + (i % 4));
    const { ok } = await settle(amounts.map((a) => charge(id, a, allowance)));
    const after = await getCredits(sql, id, allowance);
    expect(after.balance).toBeGreaterThanOrEqual(0);
    expect(after.freeRemaining).toBeGreaterThanOrEqual(0);
    expect(after.purchasedBalance).toBeGreaterThanOrEqual(0);
    // Nothing affordable is left behind: every amount is at most 4.
    expect(after.balance).toBeLessThan(4);
    const l = await ledger(id);
    expect(l.charges).toBe(ok.length);
    expect(l.delta).toBe(after.balance - 47);
    expect(l.free).toBe(after.freeRemaining - 7);
    expect(l.purchased).toBe(after.purchasedBalance - 40);
  });

  it('a failed charge changes nothing and writes no ledger row', async () => {
    const id = await account(1);
    await expect(charge(id, 2, 0)).rejects.toMatchObject({
      code: 'INSUFFICIENT_CREDITS',
      message: expect.stringContaining('balance is 1'),
    });
    expect((await getCredits(sql, id, 0)).balance).toBe(1);
    expect((await ledger(id)).charges).toBe(0);
  });

  it('a zero charge is free and unrecorded', async () => {
    const id = await account(0);
    expect(await charge(id, 0, 0)).toBe(0);
    expect((await ledger(id)).charges).toBe(0);
  });
});

describe('refunds', () => {
  it('refunding one charge twice, concurrently, refunds it once', async () => {
    const id = await account(10);
    const chargeId = await charge(id, 3, 0);
    expect((await getCredits(sql, id, 0)).balance).toBe(7);
    await Promise.all([refundCharge(sql, chargeId), refundCharge(sql, chargeId), refundCharge(sql, chargeId)]);
    expect((await getCredits(sql, id, 0)).balance).toBe(10);
    const l = await ledger(id);
    expect(l).toMatchObject({ charges: 1, refunds: 1, delta: 0 });
  });

  it('free credits come back on the same UTC day only; purchased ones always', async () => {
    const id = await account(5);
    const day = new Date('2031-03-10T23:59:59.000Z');
    const nextDay = new Date('2031-03-11T00:00:01.000Z');
    const chargeId = await charge(id, 6, 3, day); // 3 free + 3 purchased
    expect(await getCredits(sql, id, 3, day)).toMatchObject({ freeRemaining: 0, purchasedBalance: 2 });
    await refundCharge(sql, chargeId, nextDay);
    // The new day has its full allowance anyway; yesterday's is not added on top.
    expect(await getCredits(sql, id, 3, nextDay)).toMatchObject({ freeRemaining: 3, purchasedBalance: 5, balance: 8 });
  });

  it('refunding an unknown charge does nothing', async () => {
    await expect(refundCharge(sql, 987_654_321)).resolves.toBeUndefined();
  });
});

describe('the daily allowance', () => {
  it('is spent before purchased credits', async () => {
    const id = await account(5);
    const now = new Date('2031-05-01T12:00:00Z');
    await charge(id, 12, 10, now);
    expect(await getCredits(sql, id, 10, now)).toMatchObject({ freeRemaining: 0, purchasedBalance: 3, balance: 3 });
    const [row] =
      await sql`select free_delta, purchased_delta from credit_ledger where account_id = ${id} and kind = 'charge'`;
    expect(row).toEqual({ free_delta: -10, purchased_delta: -2 });
  });

  it('resets at 00:00 UTC, not before', async () => {
    const id = await account(0);
    const lastMs = new Date('2031-05-01T23:59:59.999Z');
    const midnight = new Date('2031-05-02T00:00:00.000Z');
    await charge(id, 4, 4, new Date('2031-05-01T00:00:00.000Z'));
    expect(await getCredits(sql, id, 4, lastMs)).toMatchObject({
      freeRemaining: 0,
      balance: 0,
      resetsAt: midnight.toISOString(),
    });
    await expect(charge(id, 1, 4, lastMs)).rejects.toMatchObject({ code: 'INSUFFICIENT_CREDITS' });
    expect(await getCredits(sql, id, 4, midnight)).toMatchObject({
      freeRemaining: 4,
      balance: 4,
      resetsAt: '2031-05-03T00:00:00.000Z',
    });
    await charge(id, 4, 4, midnight);
    await expect(charge(id, 1, 4, midnight)).rejects.toMatchObject({ code: 'INSUFFICIENT_CREDITS' });
  });

  it('does not accumulate over missed days', async () => {
    const id = await account(0);
    await charge(id, 1, 4, new Date('2031-06-01T10:00:00Z'));
    expect((await getCredits(sql, id, 4, new Date('2031-06-09T10:00:00Z'))).freeRemaining).toBe(4);
  });

  it('is exact under concurrency at the day boundary: the old day and the new day each give their own allowance', async () => {
    const id = await account(0);
    const before = new Date('2031-07-01T23:59:59.900Z');
    const after = new Date('2031-07-02T00:00:00.100Z');
    const { ok: okBefore } = await settle(Array.from({ length: 20 }, () => charge(id, 1, 5, before)));
    const { ok: okAfter } = await settle(Array.from({ length: 20 }, () => charge(id, 1, 5, after)));
    expect(okBefore).toHaveLength(5);
    expect(okAfter).toHaveLength(5);
    expect((await getCredits(sql, id, 5, after)).balance).toBe(0);
  });
});

describe('grants', () => {
  it('refuse non-positive or fractional amounts and unknown accounts', async () => {
    const id = await account(0);
    for (const amount of [0, -1, 1.5, Number.NaN]) {
      await expect(grantCredits(sql, id, amount)).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    }
    await expect(grantCredits(sql, 'acc_missing', 1)).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
  });
});
