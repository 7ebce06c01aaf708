// Review (money/report): a frame whose capture outlasts the requester's wait (REQUEST_WAIT_MS) is answered in
// `failed` with SERVICE_BUSY, and the answer's creditsCharged leaves it out; the schema says failed timestamps are
// "not charged". The capture then finishes, is stored, and is charged to that requester (cdb4ea1). The answer's
// creditsCharged and `failed` no longer say what the ledger takes for the request (the class of finding 11).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../support/clients.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { cachedTestVideo } from '../support/make-video.ts';
import { FRAME_FIXTURES, recordedPlayerRoute } from '../support/media-youtube.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { serveFile, startVideoServer, type ServedRequest, type VideoServer } from '../support/video-server.ts';

const LONG = 'Fjg5lYqvzUs';

describe.skipIf(!sharedAvailable)('a frame captured after its requester stopped waiting', { timeout: 120_000 }, () => {
  let yt: VideoServer;
  let s: TestServer;
  let holdFirst = false;
  let release: () => void = () => {};

  beforeAll(async () => {
    const videoFile = await cachedTestVideo({ seconds: 3 * 3600 });
    const gate = new Promise<void>((r) => (release = r));
    yt = await startVideoServer({
      '/youtubei/v1/player': recordedPlayerRoute(FRAME_FIXTURES),
      '/videoplayback': {
        handle: (req: IncomingMessage, res: ServerResponse, served: ServedRequest) => {
          if (holdFirst) {
            holdFirst = false;
            void gate.then(() => serveFile(req, res, served, videoFile, 'video/mp4'));
            return;
          }
          serveFile(req, res, served, videoFile, 'video/mp4');
        },
      },
    });
    // Long enough for the free capture on a loaded machine; the held one outlasts it whatever the wait.
    s = await startTestServer({ YOUTUBE_BASE_URL: yt.origin, REQUEST_WAIT_MS: '6000' });
  }, 120_000);
  afterAll(async () => {
    release();
    await s?.close();
    await yt?.close();
  });

  it('what the answer reports as charged is what the ledger takes for the request', async () => {
    const a = await s.newKey({ credits: 5, rateLimit: 100_000 });
    await rest(s.url, 'GET', `/videos/${LONG}`, { key: a.key });
    holdFirst = true;
    const r = await rest(s.url, 'POST', '/frames', {
      key: a.key,
      body: { videoId: LONG, timestamps: [31, 37], width: 160 },
    });
    expect(r.status).toBe(200);
    release();
    const reported = r.json.creditsCharged as number;
    // Let the held capture finish and commit.
    const spent = async () =>
      -(
        await s.deps.sql<{ sum: number }[]>`
          select coalesce(sum(delta), 0)::int as sum from credit_ledger where account_id = ${a.accountId} and kind <> 'grant'`
      )[0]!.sum;
    for (let end = Date.now() + 20_000; Date.now() < end && (await spent()) === reported; )
      await new Promise((res) => setTimeout(res, 250));
    expect(r.json.failed.map((f: { error: { code: string } }) => f.error.code)).toEqual(['SERVICE_BUSY']);
    expect(await spent()).toBe(reported);
  });
});
