// The cluster's egress budget (LOOKUP_EGRESS_PER_MINUTE) is shared by every account; an account's unpaid lookups are
// bounded by its free allowance so that it cannot spend that budget for nothing. Covered listings escape the
// allowance (listing-claims-attacks.test.ts): here a burst of them, cancelled, spends the budget another account's
// batch needed. No worker runs (MODE=api).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../support/clients.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { BROWSE, browseAvailable } from '../support/youtube-browse-replay.ts';
import { startBatchHarness, type BatchHarness } from './batch-harness.ts';

const FREE = 3;
const EGRESS = 2 * FREE;
const PRICE = 2;
const BURST = 10;
let h: BatchHarness;
beforeAll(async () => {
  if (!sharedAvailable || !browseAvailable) return;
  h = await startBatchHarness({
    FREE_LOOKUPS_PER_10_MIN: String(FREE),
    LOOKUP_EGRESS_PER_MINUTE: String(EGRESS),
    MODE: 'api',
  });
  // One egress minute and one allowance window for the whole file.
  const pinned = Math.floor(Date.now() / 600_000) * 600_000 + 1_000;
  h.s.deps.clock.now = () => pinned;
  // A slow YouTube: the burst's listings are all admitted before any batch is stored.
  h.yt.delay((r) => r.kind !== 'player' && r.kind !== 'timedtext', 300);
});
afterAll(() => h?.close());

const listed = () => h.yt.requests.filter((r) => r.kind !== 'player' && r.kind !== 'timedtext').length;
const playlist1 = { playlist: BROWSE.playlist.id, operation: { type: 'transcript' }, maxVideos: 1 };

describe.skipIf(!sharedAvailable || !browseAvailable)(
  'covered listings and the shared egress budget',
  { timeout: 90_000 },
  () => {
    // Was a hole: bounded by its allowance, an account paying nothing could take at most 3 of the 6 upstream lookups
    // of the minute; 10 covered listings sent at once (20 credits, never spent) took all 6 and were then cancelled, so
    // another account's batch was refused (429, the service's budget spent) by an account that paid nothing. Now a
    // cancelled listing batch pays its pages: what the attacker spends of the shared budget beyond its allowance, it
    // pays for, as any paying caller does.
    it('a burst of covered listings, cancelled, pays for the budget it spends beyond its allowance', async () => {
      const attacker = await h.s.newKey({ credits: BURST * PRICE, rateLimit: 100_000 });
      const before = listed();
      const made = await Promise.all(
        Array.from({ length: BURST }, () => rest(h.s.url, 'POST', '/batches', { key: attacker.key, body: playlist1 })),
      );
      for (const r of made.filter((m) => m.status === 202))
        expect((await rest(h.s.url, 'POST', `/batches/${r.json.id}/cancel`, { key: attacker.key })).status).toBe(200);
      const [charged] = await h.s.deps.sql<{ n: number }[]>`
      select coalesce(-sum(delta), 0)::int as n from credit_ledger
      where account_id = ${attacker.accountId} and kind = 'charge' and operation like 'listing.%'`;
      const fetched = listed() - before;
      expect(fetched - charged!.n, `${fetched} pages fetched, ${charged!.n} paid`).toBeLessThanOrEqual(FREE);
    });
  },
);
