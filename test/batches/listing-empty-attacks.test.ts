// A listing that YouTube answers with no videos ends the create in 400 (nothing to batch): its page reached YouTube
// all the same, so it must count against the free allowance like any page that paid nothing. Here YouTube answers
// one playlist with a page holding no videos.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../support/clients.ts';
import { REPO_ROOT, sharedAvailable } from '../support/fixture-files.ts';
import { BROWSE, browseAvailable } from '../support/youtube-browse-replay.ts';
import { startLoopbackYoutube, type LoopbackYoutube } from '../support/loopback-youtube.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { recordedRoutes } from '../transcripts/recorded-youtube.ts';

const FREE = 3;
const ROUNDS = 10;
let yt: LoopbackYoutube;
let s: TestServer;
let browsed = 0;
beforeAll(async () => {
  if (!sharedAvailable || !browseAvailable) return;
  // The recorded first page of a playlist with its videos renamed out of sight: a real playlist listing none.
  const dir = resolve(REPO_ROOT, process.env.YOUTUBE_BROWSE_FIXTURES_DIR ?? '../shared/fixtures/youtube-browse');
  const mock = JSON.parse(
    readFileSync(resolve(dir, `browse.playlist.first-page.${BROWSE.playlist.id}.newpipe-mock.json`), 'utf8'),
  );
  const empty = (mock.response.responseBody as string).split('playlistVideoRenderer').join('removedRenderer');
  yt = await startLoopbackYoutube({
    ...recordedRoutes(),
    other: (url) => {
      if (!url.pathname.endsWith('/browse')) return { status: 404, body: 'no route' };
      browsed++;
      return { status: 200, body: empty };
    },
  });
  s = await startTestServer({ YOUTUBE_BASE_URL: yt.origin, FREE_LOOKUPS_PER_10_MIN: String(FREE), MODE: 'api' });
  const pinned = Math.floor(Date.now() / 600_000) * 600_000 + 1_000;
  s.deps.clock.now = () => pinned;
});
afterAll(async () => {
  await s?.close();
  await yt?.close();
});

describe.skipIf(!sharedAvailable || !browseAvailable)('listing that lists no videos', { timeout: 60_000 }, () => {
  it('10 creates over an empty playlist by a 2-credit account: at most the free allowance of pages', async () => {
    const { key } = await s.newKey({ credits: 2, rateLimit: 100_000 });
    const statuses: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const r = await rest(s.url, 'POST', '/batches', {
        key,
        body: { playlist: BROWSE.playlist.id, operation: { type: 'transcript' }, maxVideos: 1 },
      });
      statuses.push(r.status);
      expect(r.status, JSON.stringify(r.json)).toBeLessThan(500);
    }
    expect(browsed, JSON.stringify(statuses)).toBeLessThanOrEqual(FREE);
  });
});
