// EXTRACTION_CONCURRENCY holds across instances: two services on one database, a cap of 1, and a YouTube that
// holds caption downloads open. The second instance's job waits for the first's slot, then runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedAvailable } from '../support/fixture-files.ts';
import { rest } from '../support/clients.ts';
import { createTestDatabase } from '../support/databases.ts';
import { isCaptions, startLoopbackYoutube, type LoopbackYoutube } from '../support/loopback-youtube.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { ID, pollUntil, recordedRoutes } from './recorded-youtube.ts';

describe.skipIf(!sharedAvailable)('extraction capacity across instances', () => {
  let yt: LoopbackYoutube;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let one: TestServer;
  let two: TestServer;
  beforeAll(async () => {
    yt = await startLoopbackYoutube(recordedRoutes());
    db = await createTestDatabase();
    const env = { YOUTUBE_BASE_URL: yt.origin, EXTRACTION_CONCURRENCY: '1', QUEUE_MAX_WAITING: '10' };
    one = await startTestServer(env, {}, { database: db });
    two = await startTestServer(env, {}, { database: db });
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await yt?.close();
    await db?.drop();
  });

  it('runs one extraction at a time however many instances have work', async () => {
    const { key } = await one.newKey({ credits: 20 });
    const [a, b] = [ID.captions9, ID.manualAndAsr];
    for (const id of [a, b]) expect((await rest(one.url, 'GET', `/videos/${id}`, { key })).status).toBe(200);

    const held = yt.hold(isCaptions());
    const first = rest(one.url, 'POST', '/subtitles', { key, body: { videoId: a } });
    await held.caughtAtLeast(1);
    const second = rest(two.url, 'POST', '/subtitles', { key, body: { videoId: b } });
    const activeJobs = async () =>
      (
        await one.deps.sql<
          { n: number }[]
        >`select count(*)::int as n from pgboss.job where name = 'extract' and state = 'active'`
      )[0]!.n;
    await pollUntil(async () => (await activeJobs()) === 2, 'both jobs fetched by a worker');
    // Both are active in pg-boss, but only one may hold the slot: b's download cannot have started.
    const slots = async () =>
      (
        await one.deps.sql<
          { n: number }[]
        >`select count(*)::int as n from job_slots where queue = 'extract' and holder is not null and lease_until > now()`
      )[0]!.n;
    for (let i = 0; i < 20; i++) {
      expect(await slots()).toBeLessThanOrEqual(1);
      expect(held.caught).toBe(1);
      await new Promise((r) => setTimeout(r, 20));
    }
    held.release();
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
    expect(yt.count(isCaptions(b))).toBe(1);
  });
});
