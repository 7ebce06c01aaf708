// Listing pages (playlists, channels, search) leave from the same egress identities as videos and spend the same
// hourly budget, counted as the WEB client's "listing" attempts (recorded browse answers, shared fixtures).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../support/clients.ts';
import { BROWSE, browseAvailable } from '../support/youtube-browse-replay.ts';
import { startBrowseHarness, type BrowseHarness } from '../listing/browse-harness.ts';

let h: BrowseHarness;
beforeAll(async () => {
  if (browseAvailable) h = await startBrowseHarness({ YOUTUBE_REQUESTS_PER_HOUR: '2' });
});
afterAll(() => h?.close());

describe.skipIf(!browseAvailable)('listing pages and the budget', () => {
  it('each page fetched takes a request from the identity; once spent, 503 with Retry-After and no charge', async () => {
    const { key } = await h.s.newKey({ credits: 10 });
    const playlist = await rest(h.s.url, 'GET', '/playlists/videos', {
      key,
      query: { playlistId: BROWSE.playlist.id },
    });
    expect(playlist.status, playlist.text).toBe(200);
    const search = await rest(h.s.url, 'GET', '/youtube/search', { key, query: { query: BROWSE.search.query } });
    expect(search.status, search.text).toBe(200);
    const [row] = await h.s.deps.sql<{ used: number }[]>`select used from youtube_identities where id = 'direct'`;
    expect(row!.used).toBe(2);

    const before = (await rest(h.s.url, 'GET', '/credits', { key })).json.balance as number;
    const refused = await rest(h.s.url, 'GET', '/playlists/videos', {
      key,
      query: { playlistId: BROWSE.playlist.id, cursor: playlist.json.nextCursor },
    });
    expect(refused.status).toBe(503);
    expect(refused.json.error.code).toBe('SERVICE_BUSY');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3500);
    expect((await rest(h.s.url, 'GET', '/credits', { key })).json.balance).toBe(before);
    // A page fetched before is served from the listing cache without YouTube.
    expect(
      (await rest(h.s.url, 'GET', '/playlists/videos', { key, query: { playlistId: BROWSE.playlist.id } })).status,
    ).toBe(200);

    const counts = await h.s.deps.sql<{ client: string; purpose: string; kind: string; count: number }[]>`
      select client, purpose, kind, sum(count)::int as count from youtube_outcomes group by 1, 2, 3`;
    expect(counts).toEqual([{ client: 'WEB', purpose: 'listing', kind: 'served', count: 2 }]);
  });
});
