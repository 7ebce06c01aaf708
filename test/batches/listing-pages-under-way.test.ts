// A batch's listing pages count as unpaid from before each is fetched until the batch holds them (issue 32: a burst of
// creates each checked before any batch row existed, and a listing's own pages went uncounted while it ran). Counted
// in PostgreSQL, so two instances of one database share the count; taken back when each listing ends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../support/clients.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { startListingInstances, type ListingInstances } from './listing-instances.ts';
import type { LoopbackYoutube } from '../support/loopback-youtube.ts';
import type { TestServer } from '../support/test-server.ts';
import { BROWSE, browseAvailable } from '../support/youtube-browse-replay.ts';

const FREE = 3;
const BURST = 10;
let yt: LoopbackYoutube;
let s1: TestServer;
let s2: TestServer;
let instances: ListingInstances | undefined;
beforeAll(async () => {
  if (!sharedAvailable || !browseAvailable) return;
  instances = await startListingInstances(FREE);
  ({ yt, s1, s2 } = instances);
});
afterAll(() => instances?.close());

/** Listing pages and handle resolutions served by YouTube. */
const listingRequests = () => yt.requests.filter((r) => r.kind !== 'player' && r.kind !== 'timedtext').length;
const underWay = async (accountId: string) => {
  const [row] = await s1.deps.sql<{ n: number }[]>`
    select coalesce(sum(count), 0)::int as n from rate_counters where key_id = ${`lookup-listing:${accountId}`}`;
  return row!.n;
};
/** Pages held by the account's batches: paid by their videos (the balance covered each listing, with the others). */
const heldPages = async (accountId: string) => {
  const [row] = await s1.deps.sql<{ n: number }[]>`
    select coalesce(sum(listing_pages), 0)::int as n from batches where account_id = ${accountId}`;
  return row!.n;
};

describe.skipIf(!sharedAvailable || !browseAvailable)('listing pages under way', { timeout: 90_000 }, () => {
  it('a burst of playlist batches split over two instances by a 2-credit account: no more unpaid pages than the allowance, none left counted', async () => {
    const { key, accountId } = await s1.newKey({ credits: 2, rateLimit: 100_000 });
    const before = listingRequests();
    const results = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        rest((i % 2 ? s2 : s1).url, 'POST', '/batches', {
          key,
          body: { playlist: BROWSE.playlist.id, operation: { type: 'transcript' }, maxVideos: 1 },
        }),
      ),
    );
    for (const r of results) expect([202, 429], JSON.stringify(r.json)).toContain(r.status);
    // The 2 credits cover two listings of 1 video at once, not refused by each other's pages: a funded burst creates
    // batches, whose pages their videos pay for (or count as unpaid when the batch ends uncharged); every other page
    // is one the allowance pays for.
    expect(results.filter((r) => r.status === 202).length).toBeGreaterThanOrEqual(1);
    expect(listingRequests() - before - (await heldPages(accountId))).toBeLessThanOrEqual(FREE);
    expect(await underWay(accountId)).toBe(0);
  });

  it('a burst of channel batches by a /user/ URL: the handle resolutions count as pages too', async () => {
    const { key, accountId } = await s1.newKey({ credits: 2, rateLimit: 100_000 });
    const before = listingRequests();
    const results = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        rest((i % 2 ? s2 : s1).url, 'POST', '/batches', {
          key,
          body: { channel: BROWSE.channelVideos.user, operation: { type: 'transcript' }, maxVideos: 1 },
        }),
      ),
    );
    for (const r of results) expect([202, 429], JSON.stringify(r.json)).toContain(r.status);
    // Two pages each (the handle, then the videos).
    expect(results.filter((r) => r.status === 202).length).toBeGreaterThanOrEqual(1);
    expect(listingRequests() - before - (await heldPages(accountId))).toBeLessThanOrEqual(FREE);
    expect(await underWay(accountId)).toBe(0);
  });

  it('refused only for pages of batches not yet charged: told to retry in seconds, not at the window end', async () => {
    const { key } = await s1.newKey({ credits: 5, rateLimit: 100_000 });
    const statuses: number[] = [];
    let refused: Awaited<ReturnType<typeof rest>> | undefined;
    for (let i = 0; i < FREE + 1; i++) {
      const r = await rest(s1.url, 'POST', '/batches', {
        key,
        body: { playlist: BROWSE.playlist.id, operation: { type: 'transcript' }, maxVideos: 1 },
      });
      statuses.push(r.status);
      if (r.status === 429) refused = r;
    }
    expect(statuses).toEqual([202, 202, 202, 429]);
    expect(refused!.json.error.code).toBe('RATE_LIMITED');
    expect(refused!.json.error.message).toMatch(/not yet charged/);
    expect(Number(refused!.headers.get('retry-after'))).toBe(5);
  });

  it('a batch whose video has started but is not charged still holds its pages as unpaid (the video may fail uncharged)', async () => {
    const { key, accountId } = await s1.newKey({ credits: 5, rateLimit: 100_000 });
    const create = () =>
      rest(s2.url, 'POST', '/batches', {
        key,
        body: { playlist: BROWSE.playlist.id, operation: { type: 'transcript' }, maxVideos: 1 },
      });
    for (let i = 0; i < FREE; i++) expect((await create()).status).toBe(202);
    // As a worker does when it takes each batch's video, none charged yet.
    await s1.deps.sql`
      update batch_items set status = 'running' where batch_id in (select id from batches where account_id = ${accountId})`;
    const refused = await create();
    expect(refused.status, JSON.stringify(refused.json)).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBe(5);
    await s1.deps.sql`
      update batch_items set credits_charged = 1 where batch_id =
        (select id from batches where account_id = ${accountId} order by created_at limit 1)`;
    expect((await create()).status).toBe(202);
  });

  it('a listing refused after it listed (402) leaves its pages unpaid and none under way', async () => {
    const { key, accountId } = await s1.newKey({ credits: 2, rateLimit: 100_000 });
    const r = await rest(s2.url, 'POST', '/batches', {
      key,
      body: { channel: BROWSE.channelVideos.id, operation: { type: 'transcript' }, maxVideos: 60 },
    });
    expect(r.status, JSON.stringify(r.json)).toBe(402);
    expect(await underWay(accountId)).toBe(0);
    const [row] = await s1.deps.sql<{ n: number }[]>`
      select coalesce(sum(count), 0)::int as n from rate_counters where key_id = ${`lookup-unpaid:${accountId}`}`;
    expect(row!.n).toBe(2);
  });
});
