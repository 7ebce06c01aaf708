// What the listing-allowance tests run against: two service instances on one database (no worker), a loopback
// YouTube replaying the recorded browse fixtures, and one allowance window for the whole file, whatever the wall
// clock does meanwhile.
import { createTestDatabase } from '../support/databases.ts';
import { startLoopbackYoutube, type LoopbackYoutube } from '../support/loopback-youtube.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { replayBrowse } from '../support/youtube-browse-replay.ts';
import { recordedRoutes } from '../transcripts/recorded-youtube.ts';

export interface ListingInstances {
  yt: LoopbackYoutube;
  db: Awaited<ReturnType<typeof createTestDatabase>>;
  s1: TestServer;
  s2: TestServer;
  close(): Promise<void>;
}

export async function startListingInstances(freeLookups: number): Promise<ListingInstances> {
  const yt = await startLoopbackYoutube({
    ...recordedRoutes(),
    other: (url, body) => replayBrowse(url, body) ?? { status: 404, body: 'no route' },
  });
  const db = await createTestDatabase();
  const env = { YOUTUBE_BASE_URL: yt.origin, FREE_LOOKUPS_PER_10_MIN: String(freeLookups), MODE: 'api' };
  const shared = { database: { url: db.url, drop: async () => {} } };
  const s1 = await startTestServer(env, {}, shared);
  const s2 = await startTestServer(env, {}, shared);
  const pinned = Math.floor(Date.now() / 600_000) * 600_000 + 1_000;
  s1.deps.clock.now = () => pinned;
  s2.deps.clock.now = () => pinned;
  return {
    yt,
    db,
    s1,
    s2,
    async close() {
      await s1.close();
      await s2.close();
      await db.drop();
      await yt.close();
    },
  };
}
