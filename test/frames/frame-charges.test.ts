// What frames cost, against the real service: a stored frame was paid once by the account that asked for it, even
// when its capture finished after the requester stopped waiting (or it is not stored), and the answer's
// creditsCharged is what the ledger took.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureFrames } from '../../src/domain/frames/capture-frames.ts';
import { runFrameJob } from '../../src/domain/frames/frame-job.ts';
import type { FrameJob } from '../../src/domain/work-queue.ts';
import { FRAME_PRICE } from '../../src/domain/pricing/prices.ts';
import { rest } from '../support/clients.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { startMediaYoutube } from '../support/media-youtube.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const LONG = 'Fjg5lYqvzUs';

describe.skipIf(!sharedAvailable)('frame charges', { timeout: 90_000 }, () => {
  let yt: Awaited<ReturnType<typeof startMediaYoutube>>;
  let s: TestServer;
  const ledger = async (accountId: string) =>
    (
      await s.deps.sql<
        { sum: number }[]
      >`select coalesce(sum(delta), 0)::int as sum from credit_ledger where account_id = ${accountId} and kind <> 'grant'`
    )[0]!.sum;
  const storedFrame = async (tMs: number, width: number) =>
    (await s.deps.frameStore.readMany(LONG, width, [tMs])).get(tMs) ?? null;

  beforeAll(async () => {
    yt = await startMediaYoutube();
    s = await startTestServer({ YOUTUBE_BASE_URL: yt.origin, FRAME_CONCURRENCY: '2' });
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    await yt?.close();
  });

  it('five copies of one timestamp: one capture, and creditsCharged equals the ledger (1)', async () => {
    const { key, accountId } = await s.newKey({ credits: 10 });
    const r = await rest(s.url, 'POST', '/frames', {
      key,
      body: { videoId: LONG, timestamps: [31, 31, 31, 31, 31], width: 160 },
    });
    expect(r.status).toBe(200);
    expect(r.json.frames.map((f: { t: number }) => f.t)).toEqual([31, 31, 31, 31, 31]);
    expect(r.json.creditsCharged).toBe(FRAME_PRICE);
    expect(await ledger(accountId)).toBe(-FRAME_PRICE);
  });

  // The rule changed (issue 23, review "late frame report"): a late frame used to be stored and charged, but its
  // answer had already reported it failed and uncharged (SERVICE_BUSY). Now the answer is what the ledger takes.
  it('a frame captured after its requester’s deadline is neither stored nor charged', async () => {
    const { accountId } = await s.newKey({ credits: 10 });
    await s.deps.videos.read(LONG); // metadata stored by the previous request or fetched by the job
    const job = {
      videoId: LONG,
      tMs: 41_000,
      width: 160,
      accountId,
      requestId: `req_late_${accountId}`,
      price: FRAME_PRICE,
      deadline: Date.now() - 1,
    };
    await expect(runFrameJob(s.deps, job)).rejects.toMatchObject({ code: 'SERVICE_BUSY' });
    expect(await storedFrame(41_000, 160)).toBeNull();
    expect(await ledger(accountId)).toBe(0);
  });

  it('a frame its requester can no longer pay for when it is captured is not stored', async () => {
    const { accountId } = await s.newKey();
    const job = {
      videoId: LONG,
      tMs: 43_000,
      width: 160,
      accountId,
      requestId: `req_late_poor_${accountId}`,
      price: FRAME_PRICE,
      deadline: Date.now() + 60_000,
    };
    await expect(runFrameJob(s.deps, job)).rejects.toMatchObject({ code: 'INSUFFICIENT_CREDITS' });
    expect(await storedFrame(43_000, 160)).toBeNull();
    expect(await ledger(accountId)).toBe(0);
  });

  it('a frame job retried after its first run stored and charged the frame: the answer reports that charge', async () => {
    // Found by the long invariant run (3 of 10,000 operations): the worker was killed (or the database cut) after the
    // charge committed and before the job's outcome was recorded; the queue's retry found the frame stored and
    // answered "charged to nobody", so the request said creditsCharged 0 while the ledger had taken 1.
    const { accountId } = await s.newKey({ credits: 10 });
    const requestId = `req_retried_${accountId}`;
    const deps = {
      ...s.deps,
      jobs: {
        ...s.deps.jobs,
        // The first run commits and dies; the queue's retry of the same job is what the requester hears.
        frame: async <T>(job: FrameJob) => {
          await runFrameJob(s.deps, job);
          return { producer: true, outcome: { ok: true as const, value: (await runFrameJob(s.deps, job)) as T } };
        },
      },
    };
    const caller = { accountId, keyId: 'test', rateLimit: null };
    const r = await captureFrames(deps, { caller, requestId }, { videoId: LONG, timestamps: [47], width: 160 });
    expect(await ledger(accountId)).toBe(-FRAME_PRICE);
    expect(r.creditsCharged).toBe(FRAME_PRICE);
  });
});
