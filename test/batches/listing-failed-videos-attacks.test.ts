// Batches whose videos all fail free (YouTube knows none of the playlist's videos here), run by this instance's
// workers: each ends charging nothing, so its listing pages count as unpaid when it ends, and a loop of such
// covered creates gets no more pages than the allowance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../support/clients.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { BROWSE, browseAvailable } from '../support/youtube-browse-replay.ts';
import { startBatchHarness, type BatchHarness } from './batch-harness.ts';

const FREE = 3;
const PRICE = 2;
const ROUNDS = 8;
let h: BatchHarness;
beforeAll(async () => {
  if (!sharedAvailable || !browseAvailable) return;
  h = await startBatchHarness({ FREE_LOOKUPS_PER_10_MIN: String(FREE) });
  const pinned = Math.floor(Date.now() / 600_000) * 600_000 + 1_000;
  h.s.deps.clock.now = () => pinned;
});
afterAll(() => h?.close());

// The items' own requests (watch pages and the like for the videos) are not listing pages.
const isListingPage = (r: { url: URL }) =>
  /\/youtubei\/v1\/(browse|search|navigation\/resolve_url)$/.test(r.url.pathname);
const listingRequests = () => h.yt.requests.filter(isListingPage).length;

async function ended(key: string, id: string): Promise<any> {
  for (let i = 0; i < 300; i++) {
    const r = await rest(h.s.url, 'GET', `/batches/${id}`, { key });
    if (r.json.status !== 'running') return r.json;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`batch ${id} still running`);
}

describe.skipIf(!sharedAvailable || !browseAvailable)(
  'listings whose videos all fail free',
  { timeout: 120_000 },
  () => {
    it('covered one-page creates run to their end one after another: at most the allowance of pages', async () => {
      const { key, accountId } = await h.s.newKey({ credits: 10 * PRICE, rateLimit: 100_000 });
      const before = listingRequests();
      const outcomes: string[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        const r = await rest(h.s.url, 'POST', '/batches', {
          key,
          body: { playlist: BROWSE.playlist.id, operation: { type: 'transcript' }, maxVideos: 1 },
        });
        if (r.status !== 202) {
          expect(r.status, JSON.stringify(r.json)).toBe(429);
          outcomes.push('429');
          continue;
        }
        const done = await ended(key, r.json.id);
        outcomes.push(`${done.status}:${done.creditsCharged ?? '?'}`);
      }
      const fetched = listingRequests() - before;
      const [charged] = await h.s.deps.sql<{ n: number }[]>`
      select coalesce(sum(credits_charged), 0)::int as n from batch_items i join batches b on b.id = i.batch_id
      where b.account_id = ${accountId}`;
      expect(charged!.n, outcomes.join(',')).toBe(0);
      const kinds = h.yt.requests.slice(-20).map((r) => `${r.kind}:${r.url.pathname}`);
      expect(fetched, `${outcomes.join(',')} ${kinds.join(' ')}`).toBeLessThanOrEqual(FREE);
    });
  },
);
