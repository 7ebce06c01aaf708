// A batch's listing pages are paid by its videos. A batch over a playlist that never charges (cancelled before any
// video ran, or left queued with no worker to run it) must not buy free pages: an account holding 2 credits that
// created and cancelled a one-video playlist batch 10 times made YouTube serve 10 pages for nothing (issue 32, an
// attack on its third round). Its pages count against the free allowance while the batch is open and has paid
// nothing, and for good when it ends having paid nothing. No worker runs here (MODE=api), as on an API-only instance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../support/clients.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { BROWSE, browseAvailable } from '../support/youtube-browse-replay.ts';
import { startBatchHarness, type BatchHarness } from './batch-harness.ts';

const FREE = 3;
const ROUNDS = 10;
let h: BatchHarness;
beforeAll(async () => {
  if (!sharedAvailable || !browseAvailable) return;
  h = await startBatchHarness({ FREE_LOOKUPS_PER_10_MIN: String(FREE), MODE: 'api' });
  // One allowance window for the whole file, whatever the wall clock does meanwhile.
  const pinned = Math.floor(Date.now() / 600_000) * 600_000 + 1_000;
  h.s.deps.clock.now = () => pinned;
});
afterAll(() => h?.close());

const playlistPages = () => h.yt.requests.filter((r) => r.kind !== 'player' && r.kind !== 'timedtext').length;

describe.skipIf(!sharedAvailable || !browseAvailable)(
  'listing pages of batches that pay nothing',
  { timeout: 90_000 },
  () => {
    // Each cancelled batch pays its listing page (1 credit): the 2 credits pay two, then every create is refused (402)
    // before a page is fetched.
    it('created and cancelled at once, 10 times: at most the free allowance of pages reaches YouTube unpaid', async () => {
      const { key, accountId } = await h.s.newKey({ credits: 2, rateLimit: 100_000 });
      const before = playlistPages();
      const statuses: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        const r = await rest(h.s.url, 'POST', '/batches', {
          key,
          body: { playlist: BROWSE.playlist.id, operation: { type: 'transcript' }, maxVideos: 1 },
        });
        statuses.push(r.status);
        if (r.status !== 202) {
          expect([402, 429], JSON.stringify(r.json)).toContain(r.status);
          if (r.status === 429) expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
          continue;
        }
        const cancelled = await rest(h.s.url, 'POST', `/batches/${r.json.id}/cancel`, { key });
        expect(cancelled.status, JSON.stringify(cancelled.json)).toBe(200);
        expect(cancelled.json.status).toBe('cancelled');
      }
      const [paid] = await h.s.deps.sql<{ n: number }[]>`
        select coalesce(-sum(delta), 0)::int as n from credit_ledger
        where account_id = ${accountId} and kind = 'charge' and operation = 'listing.playlist'`;
      expect(playlistPages() - before - paid!.n).toBeLessThanOrEqual(FREE);
      expect(statuses.filter((st) => st !== 202).length).toBeGreaterThanOrEqual(ROUNDS - FREE);
    });

    it('left open with nobody to run them: the open batches pages count until they pay', async () => {
      const { key } = await h.s.newKey({ credits: 2, rateLimit: 100_000 });
      const before = playlistPages();
      let refused = 0;
      for (let i = 0; i < ROUNDS; i++) {
        const r = await rest(h.s.url, 'POST', '/batches', {
          key,
          body: { playlist: BROWSE.playlist.id, operation: { type: 'transcript' }, maxVideos: 1 },
        });
        if (r.status === 429) refused++;
        else expect(r.status, JSON.stringify(r.json)).toBe(202);
      }
      expect(playlistPages() - before).toBeLessThanOrEqual(FREE);
      expect(refused).toBeGreaterThanOrEqual(ROUNDS - FREE);
    });
  },
);
