// A funded account's batch listing is refused when its own pages alone fill the free allowance: attacks on what that
// refusal says and on what FREE_LOOKUPS_PER_10_MIN=0 documents (a caller who can pay is admitted until one of its
// lookups ends unpaid). No worker runs (MODE=api).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../support/clients.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { startLoopbackYoutube, type LoopbackYoutube } from '../support/loopback-youtube.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { BROWSE, browseAvailable, replayBrowse } from '../support/youtube-browse-replay.ts';
import { recordedRoutes } from '../transcripts/recorded-youtube.ts';

const WINDOW = 600_000;
let yt: LoopbackYoutube;
let none: TestServer;
let two: TestServer;
let pinned = 0;
beforeAll(async () => {
  if (!sharedAvailable || !browseAvailable) return;
  yt = await startLoopbackYoutube({
    ...recordedRoutes(),
    other: (url, body) => replayBrowse(url, body) ?? { status: 404, body: 'no route' },
  });
  const env = { YOUTUBE_BASE_URL: yt.origin, MODE: 'api' };
  none = await startTestServer({ ...env, FREE_LOOKUPS_PER_10_MIN: '0' });
  two = await startTestServer({ ...env, FREE_LOOKUPS_PER_10_MIN: '2' });
  pinned = Math.floor(Date.now() / WINDOW) * WINDOW + 1_000;
  none.deps.clock.now = () => pinned;
  two.deps.clock.now = () => pinned;
});
afterAll(async () => {
  await none?.close();
  await two?.close();
  await yt?.close();
});

const userChannel = (maxVideos: number) => ({
  channel: BROWSE.channelVideos.user,
  operation: { type: 'transcript' },
  maxVideos,
});

describe.skipIf(!sharedAvailable || !browseAvailable)("a funded listing's own pages", { timeout: 90_000 }, () => {
  // Hole: with FREE_LOOKUPS_PER_10_MIN=0 the limit is 1 lookup, and the listing's own handle resolution takes it, so
  // a funded account (nothing unpaid, nothing pending) can never create a batch over an @handle or /user/ channel,
  // nor over any listing of 2 pages; docs/configuration.md says such a caller is admitted until a lookup ends unpaid.
  it('FREE_LOOKUPS_PER_10_MIN=0: a funded account with nothing unpaid creates a batch over a /user/ channel', async () => {
    const { key } = await none.newKey({ credits: 10_000, rateLimit: 100_000 });
    const r = await rest(none.url, 'POST', '/batches', { key, body: userChannel(1) });
    expect(r.status, JSON.stringify(r.json)).toBe(202);
  });

  it('FREE_LOOKUPS_PER_10_MIN=0: a funded account creates a one-page playlist batch', async () => {
    const { key } = await none.newKey({ credits: 10_000, rateLimit: 100_000 });
    const r = await rest(none.url, 'POST', '/batches', {
      key,
      body: { playlist: BROWSE.playlist.id, operation: { type: 'transcript' }, maxVideos: 1 },
    });
    expect(r.status, JSON.stringify(r.json)).toBe(202);
  });

  // A listing needing more pages than the allowance (a handle and 2 pages for 2) was refused on its last page "only
  // for pending pages", Retry-After 5, though the pages were its own and, refused, counted unpaid for good: retried
  // when told, it was refused again. Now a listing the balance covers in full is not refused by its own pages.
  it('a funded listing needing more pages than the allowance is admitted: its own pages are paid by its videos', async () => {
    const { key } = await two.newKey({ credits: 10_000, rateLimit: 100_000 });
    const r = await rest(two.url, 'POST', '/batches', { key, body: userChannel(60) });
    expect(r.status, JSON.stringify(r.json).slice(0, 200)).toBe(202);
  });

  // The uncovered case (refused until the window ends, counted unpaid) is in test/admission/admission-rules.test.ts.
});
