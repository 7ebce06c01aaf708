// Attacks on the rule that a batch's listing pages are paid by its videos: batches that pay nothing must not buy more
// free listing pages than the allowance, however they are sent, and one account's batches must not spend another's.
// No worker runs here (MODE=api): the batches stay queued, paying nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../support/clients.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { BROWSE, browseAvailable } from '../support/youtube-browse-replay.ts';
import { startBatchHarness, type BatchHarness } from './batch-harness.ts';

const FREE = 3;
const BURST = 10;
let h: BatchHarness;
beforeAll(async () => {
  if (!sharedAvailable || !browseAvailable) return;
  h = await startBatchHarness({ FREE_LOOKUPS_PER_10_MIN: String(FREE), MODE: 'api' });
  const pinned = Math.floor(Date.now() / 600_000) * 600_000 + 1_000;
  h.s.deps.clock.now = () => pinned;
});
afterAll(() => h?.close());

const playlistPages = () => h.yt.requests.filter((r) => r.kind !== 'player' && r.kind !== 'timedtext').length;
const create = (key: string) =>
  rest(h.s.url, 'POST', '/batches', {
    key,
    body: { playlist: BROWSE.playlist.id, operation: { type: 'transcript' }, maxVideos: 1 },
  });

describe.skipIf(!sharedAvailable || !browseAvailable)('listing pages attacks', { timeout: 90_000 }, () => {
  // Each create used to check before any batch row existed, so a burst sent at once listed 10 pages for an allowance
  // of 3: a listing's pages are counted before they are fetched now, in Postgres.
  // The pages of batches created are their videos' to pay (counted unpaid if the batch ends uncharged).
  it('a burst of listing batches sent at once by a 2-credit account: at most the free allowance of pages no batch holds', async () => {
    const { key, accountId } = await h.s.newKey({ credits: 2, rateLimit: 100_000 });
    const before = playlistPages();
    const results = await Promise.all(Array.from({ length: BURST }, () => create(key)));
    for (const r of results) expect([202, 429], JSON.stringify(r.json)).toContain(r.status);
    const [held] = await h.s.deps.sql<{ n: number }[]>`
      select coalesce(sum(listing_pages), 0)::int as n from batches where account_id = ${accountId}`;
    expect(playlistPages() - before - held!.n).toBeLessThanOrEqual(FREE);
  });

  // A listing's own pages were not counted while it ran: one create overshot by its own pages (4 for 3).
  it('channel batches listing two pages each, sent in turn by a 2-credit account: at most the free allowance of pages', async () => {
    const { key } = await h.s.newKey({ credits: 2, rateLimit: 100_000 });
    const before = playlistPages();
    for (let i = 0; i < FREE; i++) {
      const r = await rest(h.s.url, 'POST', '/batches', {
        key,
        body: { channel: BROWSE.channelVideos.id, operation: { type: 'transcript' }, maxVideos: 60 },
      });
      // 402 once listed (60 videos, credits for 1): the pages were fetched all the same.
      if (r.status === 202) await rest(h.s.url, 'POST', `/batches/${r.json.id}/cancel`, { key });
      else expect([402, 429], JSON.stringify(r.json)).toContain(r.status);
    }
    expect(playlistPages() - before).toBeLessThanOrEqual(FREE);
  });

  it("another account's open and cancelled batches do not refuse this account's batches", async () => {
    const attacker = await h.s.newKey({ credits: 2, rateLimit: 100_000 });
    const victim = await h.s.newKey({ credits: 2, rateLimit: 100_000 });
    for (let i = 0; i < FREE + 2; i++) {
      const r = await create(attacker.key);
      if (r.status === 202) await rest(h.s.url, 'POST', `/batches/${r.json.id}/cancel`, { key: attacker.key });
    }
    const r = await create(victim.key);
    expect(r.status, JSON.stringify(r.json)).toBe(202);
  });

  it("cancelling another account's batch by id is refused and counts nothing against its owner", async () => {
    const owner = await h.s.newKey({ credits: 2, rateLimit: 100_000 });
    const other = await h.s.newKey({ credits: 2, rateLimit: 100_000 });
    const made = await create(owner.key);
    expect(made.status, JSON.stringify(made.json)).toBe(202);
    const c = await rest(h.s.url, 'POST', `/batches/${made.json.id}/cancel`, { key: other.key });
    expect(c.status).toBe(404);
    const got = await rest(h.s.url, 'GET', `/batches/${made.json.id}`, { key: owner.key });
    expect(got.json.status).toBe('running');
  });

  it('hostile create input answers 4xx, never 500', async () => {
    const { key } = await h.s.newKey({ credits: 2, rateLimit: 100_000 });
    const bodies: unknown[] = [
      { playlist: BROWSE.playlist.id, operation: { type: 'transcript' }, maxVideos: 1e12 },
      { playlist: BROWSE.playlist.id, operation: { type: 'transcript' }, maxVideos: -1 },
      { playlist: BROWSE.playlist.id, operation: { type: 'transcript' }, maxVideos: 1.5 },
      { channel: '@'.repeat(5000), operation: { type: 'transcript' }, maxVideos: 1 },
      { channel: 'https://www.youtube.com/@\u0000x', operation: { type: 'transcript' }, maxVideos: 1 },
      { channel: '../../../etc', operation: { type: 'transcript' }, maxVideos: 1 },
      { playlist: 'x'.repeat(100_000), operation: { type: 'transcript' }, maxVideos: 1 },
      { search: '', operation: { type: 'transcript' }, maxVideos: 1 },
    ];
    for (const body of bodies) {
      const r = await rest(h.s.url, 'POST', '/batches', { key, body });
      expect(r.status, `${JSON.stringify(body).slice(0, 80)} -> ${JSON.stringify(r.json)}`).toBeLessThan(500);
    }
  });
});
