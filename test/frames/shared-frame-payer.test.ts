// Review (money/isolation): a frame job is shared by everyone asking for the same frame, but only its first requester
// (the producer) can pay for it. When that requester's balance is spent while the capture runs, the commit is refused
// 402 and nothing is stored; a second account that joined the job, and can pay, gets that 402 too, with the first
// account's balance in the message ("the balance is 0"). Transcripts run their own job after such a failure
// (fetch-transcript.ts); frames do not: account A can make B's frames fail, and B learns A's balance.
// Since credits are held before work starts (src/domain/credits/holds.ts), A cannot spend its held credit elsewhere
// meanwhile: the drain is refused 402, A's frame is paid by its hold, and B, who joined, gets it free.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../support/clients.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { cachedTestVideo } from '../support/make-video.ts';
import { FRAME_FIXTURES, recordedPlayerRoute } from '../support/media-youtube.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { serveFile, startVideoServer, type ServedRequest, type VideoServer } from '../support/video-server.ts';

const LONG = 'Fjg5lYqvzUs';

describe.skipIf(!sharedAvailable)('a shared frame job whose producer cannot pay', { timeout: 120_000 }, () => {
  let yt: VideoServer;
  let s: TestServer;
  let holdFirst = false;
  let release: () => void = () => {};
  let heldOne: Promise<void> = Promise.resolve();

  beforeAll(async () => {
    const videoFile = await cachedTestVideo({ seconds: 3 * 3600 });
    let caught: () => void = () => {};
    heldOne = new Promise((r) => (caught = r));
    const gate = new Promise<void>((r) => (release = r));
    yt = await startVideoServer({
      '/youtubei/v1/player': recordedPlayerRoute(FRAME_FIXTURES),
      '/videoplayback': {
        handle: (req: IncomingMessage, res: ServerResponse, served: ServedRequest) => {
          if (holdFirst) {
            holdFirst = false;
            caught();
            void gate.then(() => serveFile(req, res, served, videoFile, 'video/mp4'));
            return;
          }
          serveFile(req, res, served, videoFile, 'video/mp4');
        },
      },
    });
    s = await startTestServer({ YOUTUBE_BASE_URL: yt.origin, FRAME_CONCURRENCY: '2' });
  }, 120_000);
  afterAll(async () => {
    release();
    await s?.close();
    await yt?.close();
  });

  it('an account that joined the job and can pay gets its frame (and never another account’s balance)', async () => {
    const a = await s.newKey({ credits: 1, rateLimit: 100_000 });
    const b = await s.newKey({ credits: 10, rateLimit: 100_000 });
    // Metadata stored first, so both requests go straight to the frame job.
    await rest(s.url, 'GET', `/videos/${LONG}`, { key: b.key });

    holdFirst = true;
    const aReq = rest(s.url, 'POST', '/frames', { key: a.key, body: { videoId: LONG, timestamps: [31], width: 160 } });
    await heldOne;
    const bReq = rest(s.url, 'POST', '/frames', { key: b.key, body: { videoId: LONG, timestamps: [31], width: 160 } });
    await new Promise((r) => setTimeout(r, 1500)); // B is past its balance check and waits on A's job
    // A tries to spend its only credit on another frame while its first capture is held: that credit is held.
    const drain = await rest(s.url, 'POST', '/frames', {
      key: a.key,
      body: { videoId: LONG, timestamps: [37], width: 160 },
    });
    expect(drain.status).toBe(402);
    expect(drain.json.error.code).toBe('INSUFFICIENT_CREDITS');
    release();

    const [ra, rb] = await Promise.all([aReq, bReq]);
    expect(ra.status).toBe(200);
    expect(ra.json.creditsCharged).toBe(1);
    expect(JSON.stringify(rb.json)).not.toContain('the balance is 0');
    expect(rb.status).toBe(200);
    expect(rb.json.frames).toHaveLength(1);
    // Each paid for what it got: A its drained frame, B the frame it asked for.
    const spent = async (accountId: string) =>
      (
        await s.deps.sql<{ sum: number }[]>`
          select coalesce(sum(delta), 0)::int as sum from credit_ledger where account_id = ${accountId} and kind <> 'grant'`
      )[0]!.sum;
    expect(await spent(a.accountId)).toBe(-1);
    expect(await spent(b.accountId)).toBe(0);
    expect(rb.json.creditsCharged).toBe(0);
  });
});
