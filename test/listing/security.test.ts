// The shared security and money checks for the listing procedures, against the recorded browse fixtures.
import { afterAll, beforeAll, describe } from 'vitest';
import { rest } from '../support/clients.ts';
import { describeKeyedProcedureChecks } from '../support/security-checks.ts';
import { browseAvailable, BROWSE } from '../support/youtube-browse-replay.ts';
import { startBrowseHarness, type BrowseHarness } from './browse-harness.ts';

let h: BrowseHarness;
beforeAll(async () => {
  if (!browseAvailable) return;
  h = await startBrowseHarness();
  // The recorded channel page and search are fetched once here, so the checks below are served from the listing
  // cache (free) and need no credits; the price check runs on listing.playlist, whose every call is a miss.
  const { key } = await h.s.newKey({ credits: 2 });
  for (const [path, query] of [
    ['/channels/videos', { channelId: BROWSE.channelVideos.id }],
    ['/youtube/search', { query: BROWSE.search.query }],
  ] as const) {
    const r = await rest(h.s.url, 'GET', path, { key, query });
    if (r.status !== 200) throw new Error(`warming ${path}: ${r.text}`);
  }
});
afterAll(() => h?.close());
const server = () => h.s;

let n = 0;
// A playlist YouTube does not know, new each time (a cached page would be free): 404 once the key has passed.
const unknownPlaylist = () => ({ playlistId: `PLnotrecorded${String(++n).padStart(8, '0')}` });

describe.skipIf(!browseAvailable)('listing procedures', () => {
  describeKeyedProcedureChecks('listing.playlist', server, {
    input: unknownPlaylist,
    authed: { status: 404, code: 'NOT_FOUND' },
    price: 1,
  });
  describeKeyedProcedureChecks('listing.channel', server, { input: { channelId: BROWSE.channelVideos.id } });
  describeKeyedProcedureChecks('listing.search', server, { input: { query: BROWSE.search.query } });
});
