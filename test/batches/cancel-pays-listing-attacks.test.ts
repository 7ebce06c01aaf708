// Attacks on a cancelled listing batch paying its pages (cancelled-listing.ts, settleBatch): each batch's pages are
// settled exactly once (paid at 1 credit a page, or counted unpaid), never more than the account can spend (held
// credits aside), never for another account, never for a list of videos. Two instances on one database, no worker
// (MODE=api): no video is ever run, so a cancel cancels every video and the batch ends at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelBatch } from '../../src/domain/batches/cancel-batch.ts';
import { batchPorts } from '../../src/domain/batches/batch-sources.ts';
import { sweepStalledItems } from '../../src/domain/batches/sweep-stalled-items.ts';
import { chargeCredits } from '../../src/domain/credits/credits.ts';
import { usageSummary } from '../../src/domain/usage/usage-summary.ts';
import { sweepItemsPorts } from '../../src/jobs/sweep-ports.ts';
import { mcpClient, rest, trpcClient } from '../support/clients.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { startListingInstances, type ListingInstances } from './listing-instances.ts';
import type { TestServer } from '../support/test-server.ts';
import { BROWSE, browseAvailable } from '../support/youtube-browse-replay.ts';
import { ID, pollUntil } from '../transcripts/recorded-youtube.ts';

const FREE = 3;
const PRICE = 2;
let s1: TestServer;
let s2: TestServer;
let instances: ListingInstances | undefined;
beforeAll(async () => {
  if (!sharedAvailable || !browseAvailable) return;
  instances = await startListingInstances(FREE);
  ({ s1, s2 } = instances);
});
afterAll(() => instances?.close());

const playlist1 = { playlist: BROWSE.playlist.id, operation: { type: 'transcript' }, maxVideos: 1 };
const channel60 = { channel: BROWSE.channelVideos.user, operation: { type: 'transcript' }, maxVideos: 60 };

const sql = () => s1.deps.sql;
const unpaid = async (accountId: string) => {
  const [row] = await sql()<{ n: number }[]>`
    select coalesce(sum(count), 0)::int as n from rate_counters where key_id = ${`lookup-unpaid:${accountId}`}`;
  return row!.n;
};
/** Listing pages paid (1 credit a page), and how many ledger rows paid them. */
const paid = async (accountId: string) => {
  const [row] = await sql()<{ n: number; rows: number }[]>`
    select coalesce(-sum(delta), 0)::int as n, count(*)::int as rows from credit_ledger
    where account_id = ${accountId} and kind = 'charge' and operation like 'listing.%'`;
  return row!;
};
const account = async (accountId: string) => {
  const [row] = await sql()<{ purchased: number; held: number; free: number }[]>`
    select purchased_balance as purchased, held_credits as held, free_remaining as free from accounts where id = ${accountId}`;
  return row!;
};
const batchRow = async (id: string) => {
  const [row] = await sql()<{ status: string; listing_pages: number }[]>`
    select status, listing_pages from batches where id = ${id}`;
  return row!;
};
async function created(key: string, body: unknown, s = s1) {
  const r = await rest(s.url, 'POST', '/batches', { key, body });
  expect(r.status, JSON.stringify(r.json).slice(0, 300)).toBe(202);
  return { id: r.json.id as string, requestId: r.headers.get('x-request-id')! };
}

describe.skipIf(!sharedAvailable || !browseAvailable)(
  'a cancelled listing batch pays its pages',
  { timeout: 90_000 },
  () => {
    it('shows in the credit history and usage as listing.<kind>, one credit a page, under the request that created it', async () => {
      const { key, accountId } = await s1.newKey({ credits: 60 * PRICE, rateLimit: 100_000 });
      const b = await created(key, channel60);
      const pages = (await batchRow(b.id)).listing_pages;
      expect(pages).toBeGreaterThan(0);
      const c = await rest(s2.url, 'POST', `/batches/${b.id}/cancel`, { key });
      expect(c.status, JSON.stringify(c.json)).toBe(200);
      expect(c.json).toMatchObject({ status: 'cancelled' });
      const h = await rest(s1.url, 'GET', '/credits/history', { key, query: { requestId: b.requestId } });
      expect(h.status, JSON.stringify(h.json)).toBe(200);
      expect(h.json.entries).toEqual([
        expect.objectContaining({
          kind: 'charge',
          operation: 'listing.channel',
          credits: -pages,
          requestId: b.requestId,
        }),
      ]);
      const usage = await usageSummary(s1.deps, accountId, s1.deps.config.DAILY_FREE_CREDITS);
      expect(usage.recent[0]).toMatchObject({ kind: 'charge', operation: 'listing.channel', credits: -pages });
      expect(usage.credits.balance).toBe(60 * PRICE - pages);
      expect(await unpaid(accountId)).toBe(0);
    });

    it('cancelled many times at once over REST, tRPC and MCP on two instances: its pages are paid once', async () => {
      const { key, accountId } = await s1.newKey({ credits: 60 * PRICE, rateLimit: 100_000 });
      const b = await created(key, channel60, s2);
      const pages = (await batchRow(b.id)).listing_pages;
      const mcp = await mcpClient(s2.url, key);
      const answers = await Promise.all(
        Array.from({ length: 12 }, async (_, i) => {
          const s = i % 2 ? s2 : s1;
          if (i % 3 === 1)
            return trpcClient(s.url, key)
              .batches.cancel.mutate({ id: b.id })
              .then((r) => r.status);
          if (i % 3 === 2) {
            const r: any = await mcp.callTool({ name: 'cancel_batch', arguments: { id: b.id } });
            return r.isError ? `error ${r.content[0].text}` : r.structuredContent.status;
          }
          const r = await rest(s.url, 'POST', `/batches/${b.id}/cancel`, { key });
          return r.status === 200 ? r.json.status : `${r.status} ${r.text}`;
        }),
      );
      await mcp.close();
      expect(
        answers.every((a) => a === 'cancelled'),
        answers.join(', '),
      ).toBe(true);
      expect(await paid(accountId)).toEqual({ n: pages, rows: 1 });
      expect(await unpaid(accountId)).toBe(0);
      expect((await account(accountId)).purchased).toBe(60 * PRICE - pages);
    });

    it('a list of videos cancelled pays nothing and counts nothing unpaid', async () => {
      const { key, accountId } = await s1.newKey({ credits: 10, rateLimit: 100_000 });
      const b = await created(key, { videos: [ID.captions9, ID.manualAndAsr] });
      const c = await rest(s2.url, 'POST', `/batches/${b.id}/cancel`, { key });
      expect(c.json).toMatchObject({ status: 'cancelled', creditsCharged: 0 });
      expect(await paid(accountId)).toEqual({ n: 0, rows: 0 });
      expect(await unpaid(accountId)).toBe(0);
      expect((await account(accountId)).purchased).toBe(10);
    });

    it("another account's batch: cancelling it by id is 404 everywhere, charges nobody, and leaves it running", async () => {
      const owner = await s1.newKey({ credits: 60 * PRICE, rateLimit: 100_000 });
      const other = await s2.newKey({ credits: 60 * PRICE, rateLimit: 100_000 });
      const b = await created(owner.key, channel60);
      const r = await rest(s2.url, 'POST', `/batches/${b.id}/cancel`, { key: other.key });
      expect(r.status).toBe(404);
      expect(r.json.error.code).toBe('JOB_NOT_FOUND');
      await expect(trpcClient(s1.url, other.key).batches.cancel.mutate({ id: b.id })).rejects.toThrow();
      const mcp = await mcpClient(s1.url, other.key);
      const m: any = await mcp.callTool({ name: 'cancel_batch', arguments: { id: b.id } });
      await mcp.close();
      expect(m.isError).toBe(true);
      expect((await batchRow(b.id)).status).toBe('running');
      for (const a of [owner, other]) {
        expect(await paid(a.accountId)).toEqual({ n: 0, rows: 0 });
        expect(await unpaid(a.accountId)).toBe(0);
      }
      // Its owner's cancel still pays its pages.
      expect((await rest(s1.url, 'POST', `/batches/${b.id}/cancel`, { key: owner.key })).status).toBe(200);
      expect((await paid(owner.accountId)).n).toBe((await batchRow(b.id)).listing_pages);
      expect((await account(other.accountId)).purchased).toBe(60 * PRICE);
    });

    it('hostile ids are refused (400 or 404), never a 500, and charge nothing', async () => {
      const { key, accountId } = await s1.newKey({ credits: 60 * PRICE, rateLimit: 100_000 });
      const b = await created(key, playlist1);
      // Path segments as sent (already encoded): a NUL, quotes and LIKE wildcards, an overlong id, broken UTF-8.
      const segments = [
        ...[
          `${b.id}\u0000`,
          `${b.id}' or '1'='1`,
          `${b.id}%' --`,
          b.id.toUpperCase(),
          '%',
          '_',
          `bat_${'x'.repeat(70)}`,
        ].map(encodeURIComponent),
        `${b.id}%00`,
        '%ED%A0%80',
        '%E0%A4%A',
        '..%2F..%2Fcredits',
      ];
      for (const segment of segments) {
        const r = await fetch(`${s2.url}/api/v1/batches/${segment}/cancel`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}` },
        });
        expect([400, 404], `${segment}: ${r.status} ${await r.text()}`).toContain(r.status);
      }
      const trpc = trpcClient(s1.url, key);
      for (const id of [`${b.id}\u0000`, '\ud800', `${b.id}' or '1'='1`]) {
        await expect(trpc.batches.cancel.mutate({ id })).rejects.toThrow();
      }
      const mcp = await mcpClient(s1.url, key);
      for (const id of [`${b.id}\u0000`, '\ud800', 42, null]) {
        // A tool error, or the whole message refused (a lone surrogate is refused as 400 before any tool runs).
        const m: any = await mcp
          .callTool({ name: 'cancel_batch', arguments: { id } as never })
          .catch((err: Error) => ({ isError: true, refused: err.message }));
        expect(m.isError, JSON.stringify(m)).toBe(true);
        expect(JSON.stringify(m)).not.toMatch(/INTERNAL_ERROR|"httpStatus":5/);
      }
      await mcp.close();
      // None of them is the batch: it still runs, nothing charged.
      expect((await batchRow(b.id)).status).toBe('running');
      expect((await paid(accountId)).n).toBe(0);
    });

    it('an account whose credits are all held by other work pays nothing: the pages count unpaid, the hold intact', async () => {
      const { key, accountId } = await s1.newKey({ credits: 60 * PRICE, rateLimit: 100_000 });
      const b = await created(key, channel60);
      const pages = (await batchRow(b.id)).listing_pages;
      const hold = await s1.deps.ledger.hold(
        { accountId, amount: 60 * PRICE, operation: 'translation', requestId: `held-${accountId}` },
        0,
        new Date(),
      );
      expect(hold).not.toBeNull();
      const before = await unpaid(accountId);
      const c = await rest(s2.url, 'POST', `/batches/${b.id}/cancel`, { key });
      expect(c.status, JSON.stringify(c.json)).toBe(200);
      expect(await paid(accountId)).toEqual({ n: 0, rows: 0 });
      expect((await unpaid(accountId)) - before).toBe(pages);
      expect(await account(accountId)).toMatchObject({ purchased: 60 * PRICE, held: 60 * PRICE });
    });

    it('an account that can pay some of the pages pays those and no more; the rest count unpaid', async () => {
      const { key, accountId } = await s1.newKey({ credits: 60 * PRICE, rateLimit: 100_000 });
      const b = await created(key, channel60);
      const pages = (await batchRow(b.id)).listing_pages;
      expect(pages).toBeGreaterThan(1);
      await chargeCredits(
        s1.deps,
        { accountId, amount: 60 * PRICE - 1, operation: 'transcript', requestId: `spent-${accountId}` },
        0,
      );
      const before = await unpaid(accountId);
      expect((await rest(s1.url, 'POST', `/batches/${b.id}/cancel`, { key })).status).toBe(200);
      expect(await paid(accountId)).toEqual({ n: 1, rows: 1 });
      expect((await unpaid(accountId)) - before).toBe(pages - 1);
      expect((await account(accountId)).purchased).toBe(0);
    });

    it("several of one account's batches cancelled at once on two instances, its credits short: each page settled once, the balance never below 0", async () => {
      const { key, accountId } = await s1.newKey({ credits: 60 * PRICE, rateLimit: 100_000 });
      const ids: string[] = [];
      for (const s of [s1, s2]) ids.push((await created(key, playlist1, s)).id);
      ids.push((await created(key, channel60, s2)).id);
      let pages = 0;
      for (const id of ids) pages += (await batchRow(id)).listing_pages;
      // 3 credits left for more pages than that.
      await chargeCredits(
        s1.deps,
        { accountId, amount: 60 * PRICE - 3, operation: 'transcript', requestId: `spent-${accountId}` },
        0,
      );
      expect(pages).toBeGreaterThan(3);
      const before = await unpaid(accountId);
      const answers = await Promise.all(
        ids.flatMap((id) => [s1, s2].map((s) => rest(s.url, 'POST', `/batches/${id}/cancel`, { key }))),
      );
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
      const p = await paid(accountId);
      expect(p.n).toBeLessThanOrEqual(3);
      expect(p.n + (await unpaid(accountId)) - before).toBe(pages);
      const a = await account(accountId);
      expect(a.purchased).toBe(3 - p.n);
      expect(a.purchased).toBeGreaterThanOrEqual(0);
    });

    // Was a hole (fixed: a refused charge is sized again from the balance now): the charge was sized from a balance
    // read before it and refused whole when the balance moved in between, so every page counted unpaid though the
    // account could still pay most of them: 2 credits spent between the read (pages + 1 available) and the charge of
    // every page left 0 paid and 2 of 2 unpaid, where pages - 1 paid and 1 unpaid is as far as the credits go.
    it('credits spent between the balance read and the charge: the pages still paid as far as the credits go', async () => {
      const { key, accountId } = await s1.newKey({ credits: 60 * PRICE, rateLimit: 100_000 });
      const b = await created(key, channel60);
      const pages = (await batchRow(b.id)).listing_pages;
      // A handle and its pages, or only pages once the handle is cached: at least 2.
      expect(pages).toBeGreaterThan(1);
      await chargeCredits(
        s1.deps,
        { accountId, amount: 60 * PRICE - pages - 1, operation: 'transcript', requestId: `a-${accountId}` },
        0,
      );
      const ledger = s1.deps.ledger;
      const balance = ledger.balance;
      let raced = false;
      ledger.balance = async (id, ...more) => {
        const row = await balance.call(ledger, id, ...more);
        if (id === accountId && !raced) {
          raced = true;
          // Another call of the account's spends 2 credits meanwhile.
          await chargeCredits(
            s1.deps,
            { accountId, amount: 2, operation: 'transcript', requestId: `b-${accountId}` },
            0,
          );
        }
        return row;
      };
      const before = await unpaid(accountId);
      try {
        expect((await rest(s1.url, 'POST', `/batches/${b.id}/cancel`, { key })).status).toBe(200);
      } finally {
        ledger.balance = balance;
      }
      expect(raced).toBe(true);
      const after = { paid: (await paid(accountId)).n, unpaid: (await unpaid(accountId)) - before };
      expect(after.paid + after.unpaid).toBe(pages);
      expect(after).toEqual({ paid: pages - 1, unpaid: 1 });
    });

    it('the stalled-item sweep on both instances and cancels on both, at once, on a batch whose cancel stopped before settling: settled once', async () => {
      const { key, accountId } = await s1.newKey({ credits: 60 * PRICE, rateLimit: 100_000 });
      const b = await created(key, channel60);
      const pages = (await batchRow(b.id)).listing_pages;
      // A cancel whose instance stopped after cancelling the videos, before ending the batch.
      expect(await s1.deps.batches.cancelQueued(b.id, accountId)).toBeGreaterThan(0);
      await sql()`update batches set updated_at = now() - interval '1 minute' where id = ${b.id}`;
      const before = await unpaid(accountId);
      await Promise.all([
        sweepStalledItems(sweepItemsPorts(s1.deps)),
        sweepStalledItems(sweepItemsPorts(s2.deps)),
        rest(s1.url, 'POST', `/batches/${b.id}/cancel`, { key }),
        rest(s2.url, 'POST', `/batches/${b.id}/cancel`, { key }),
        sweepStalledItems(sweepItemsPorts(s2.deps)),
      ]);
      expect((await batchRow(b.id)).status).toBe('cancelled');
      expect(await paid(accountId)).toEqual({ n: pages, rows: 1 });
      expect((await unpaid(accountId)) - before).toBe(0);
    });

    // A hole: the batch ends (settleIfDone) in one statement and its pages are charged or counted after it, outside
    // it. An instance that stops in between (killed, or the database gone for the charge and the count) leaves the
    // batch cancelled with its pages neither paid nor counted, and nothing settles them later: the sweep looks only at
    // batches still running, and a cancel again finds the batch ended. Figures: 2 pages, 0 paid, 0 counted.
    it.fails('an instance stopped between ending the batch and charging its pages: they are settled later all the same', async () => {
      const { key, accountId } = await s1.newKey({ credits: 60 * PRICE, rateLimit: 100_000 });
      const b = await created(key, channel60);
      const pages = (await batchRow(b.id)).listing_pages;
      const before = await unpaid(accountId);
      // s1's cancel stops at the balance read after the batch ended, as a process killed there would.
      const dying = {
        ...batchPorts(s1.deps),
        listingCharges: {
          ledger: { ...s1.deps.ledger, balance: () => new Promise<never>(() => {}) },
          dailyAllowance: s1.deps.config.DAILY_FREE_CREDITS,
        },
      };
      void cancelBatch(dying, accountId, b.id);
      await pollUntil(async () => (await batchRow(b.id)).status !== 'running', 'the batch ends', 10_000);
      // The other instance: its sweep, and the caller cancelling again.
      await sweepStalledItems(sweepItemsPorts(s2.deps));
      expect((await rest(s2.url, 'POST', `/batches/${b.id}/cancel`, { key })).status).toBe(200);
      const after = { paid: (await paid(accountId)).n, unpaid: (await unpaid(accountId)) - before };
      expect(after.paid + after.unpaid, JSON.stringify(after)).toBe(pages);
    });

    // Was a hole (fixed: the ledger is read after such an error): settleBatch counted every page unpaid whatever the charge threw, so a charge that committed but whose
    // answer was lost (the connection dropped after the commit: "Connection terminated unexpectedly") leaves the pages
    // both paid and counted unpaid. Figures: 2 pages, 2 paid and 2 counted.
    it('a charge committed whose answer is lost: the pages are paid or counted, not both', async () => {
      const { key, accountId } = await s1.newKey({ credits: 60 * PRICE, rateLimit: 100_000 });
      const b = await created(key, channel60);
      const pages = (await batchRow(b.id)).listing_pages;
      const ledger = s1.deps.ledger;
      const charge = ledger.charge;
      ledger.charge = async (req, ...more) => {
        const id = await charge.call(ledger, req, ...more);
        if (req.accountId === accountId && req.operation.startsWith('listing.'))
          throw new Error('Connection terminated unexpectedly');
        return id;
      };
      const before = await unpaid(accountId);
      try {
        expect((await rest(s1.url, 'POST', `/batches/${b.id}/cancel`, { key })).status).toBe(200);
      } finally {
        ledger.charge = charge;
      }
      const after = { paid: (await paid(accountId)).n, unpaid: (await unpaid(accountId)) - before };
      expect(after.paid + after.unpaid, JSON.stringify(after)).toBe(pages);
    });
  },
);
