// A cancelled listing batch paying its pages, with workers running its videos (the real queue and PostgreSQL): a
// batch with any video charged pays no page, whoever ends it (the cancel, the worker finishing the last video, the
// sweep after a worker died), and one with none charged settles its pages exactly once. The batches are stored as
// create-batch stores a listing's (its source and pages) with recorded videos, so their items run against fixtures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBatchItem } from '../../src/domain/batches/run-batch-item.ts';
import { sweepStalledItems } from '../../src/domain/batches/sweep-stalled-items.ts';
import { TRANSCRIPT_PRICE } from '../../src/domain/pricing/prices.ts';
import { sweepItemsPorts } from '../../src/jobs/sweep-ports.ts';
import { rest } from '../support/clients.ts';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { BROWSE, browseAvailable } from '../support/youtube-browse-replay.ts';
import { modelReply } from '../llm/llm-fixtures.ts';
import { ID, pollUntil } from '../transcripts/recorded-youtube.ts';
import { startBatchHarness, type BatchHarness } from './batch-harness.ts';

const PAGES = 2;
let h: BatchHarness;
let fake: FakeAnthropic;
beforeAll(async () => {
  if (!sharedAvailable || !browseAvailable) return;
  fake = await startFakeAnthropic(modelReply);
  h = await startBatchHarness({ ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: fake.url });
});
afterAll(async () => {
  await h?.close();
  await fake?.close();
});

const ledger = (accountId: string) =>
  h.s.deps.sql<{ operation: string; delta: number }[]>`
    select operation, delta from credit_ledger where account_id = ${accountId} and kind <> 'grant' order by id`;
const listingPaid = async (accountId: string) =>
  (await ledger(accountId)).filter((r) => r.operation.startsWith('listing.')).reduce((n, r) => n - r.delta, 0);
const unpaid = async (accountId: string) => {
  const [row] = await h.s.deps.sql<{ n: number }[]>`
    select coalesce(sum(count), 0)::int as n from rate_counters where key_id = ${`lookup-unpaid:${accountId}`}`;
  return row!.n;
};
const batchStatus = async (id: string) =>
  (await h.s.deps.sql<{ status: string }[]>`select status from batches where id = ${id}`)[0]!.status;

/** A playlist batch as create-batch stores one: its source, its listing pages, the videos listed. */
const listedBatch = (accountId: string, videoIds: string[], operation: any = { type: 'transcript' }) =>
  h.s.deps.batches.create({
    accountId,
    requestId: `req_listed_${accountId}`,
    operation,
    source: { playlist: BROWSE.playlist.id, maxVideos: videoIds.length },
    callbackUrl: null,
    videoIds,
    listingPages: PAGES,
  });

async function ended(key: string, id: string) {
  let batch: any;
  await pollUntil(
    async () => (batch = (await rest(h.s.url, 'GET', `/batches/${id}`, { key })).json).status !== 'running',
    `batch ${id} ends`,
    60_000,
  );
  return batch;
}

const cancel = async (key: string, id: string) => {
  const r = await rest(h.s.url, 'POST', `/batches/${id}/cancel`, { key });
  expect(r.status, r.text).toBe(200);
  return r.json;
};

describe.skipIf(!sharedAvailable || !browseAvailable)(
  'cancelled listing batches with workers',
  { timeout: 120_000 },
  () => {
    // Was a hole (fixed: a cancelled video reports what the ledger took for its request): a video whose first attempt
    // stored and paid for its transcript, then failed unexpectedly (a database blip reading the translation), is queued
    // again for later with its item's credits_charged still 0 (only a final outcome recorded what the ledger took).
    // Cancelled then, the item was cancelled as never started, and the batch, seen as having charged no video, paid its
    // 2 listing pages on top of the 2 credits its video paid, and reported 0 credits charged.
    it('a video charged, then put back in the queue after a transient failure, then cancelled: no listing page paid', async () => {
      const { key, accountId } = await h.s.newKey({ credits: 20, rateLimit: 100_000 });
      const translations = h.s.deps.translations;
      const read = translations.read;
      translations.read = async (videoId, ...more) => {
        if (videoId === ID.manualAndAsr) throw new Error('Connection terminated unexpectedly');
        return read(videoId, ...more);
      };
      let view: any;
      try {
        const batch = await listedBatch(accountId, [ID.manualAndAsr], { type: 'translation', targetLang: 'eo' });
        await h.s.deps.workQueue.batchItems(batch.id, [0]);
        // Attempt 2 is queued: attempt 1 charged the transcript, then failed.
        await pollUntil(
          async () =>
            (
              await h.s.deps.sql`
              select 1 from pgboss.job where name = 'batch-item' and state = 'created'
                and data->>'batchId' = ${batch.id} and (data->>'attempt')::int = 2`
            ).length > 0,
          'the video is queued again',
          60_000,
        );
        expect(await ledger(accountId)).toEqual([{ operation: 'subtitles', delta: -TRANSCRIPT_PRICE }]);
        view = await cancel(key, batch.id);
      } finally {
        translations.read = read;
      }
      expect(view.status).toBe('cancelled');
      expect(await listingPaid(accountId)).toBe(0);
      expect(view.creditsCharged).toBe(TRANSCRIPT_PRICE);
    });

    it('cancelled while a worker runs a video that is then charged: the running one finishes, no listing page is paid', async () => {
      const { key, accountId } = await h.s.newKey({ credits: 20, rateLimit: 100_000 });
      const batch = await listedBatch(accountId, [ID.captions9, ID.manualAndAsr]);
      const hold = h.yt.hold((r) => r.kind === 'player' && r.videoId === ID.captions9);
      // Only the first video is sent: the second stays queued, so the cancel cancels it.
      await h.s.deps.workQueue.batchItems(batch.id, [0]);
      await hold.caughtAtLeast(1);
      const mid = await cancel(key, batch.id);
      expect(mid.status).toBe('running');
      hold.release();
      const view = await ended(key, batch.id);
      expect(view).toMatchObject({ status: 'cancelled', creditsCharged: TRANSCRIPT_PRICE });
      expect(view.items.map((i: any) => i.status)).toEqual(['succeeded', 'cancelled']);
      expect(await ledger(accountId)).toEqual([{ operation: 'subtitles', delta: -TRANSCRIPT_PRICE }]);
      expect(await unpaid(accountId)).toBe(0);
    });

    it('the worker finishing the last video uncharged while cancels settle: the pages are paid once', async () => {
      const { key, accountId } = await h.s.newKey({ credits: 20, rateLimit: 100_000 });
      const batch = await listedBatch(accountId, [ID.noCaptions, ID.manualAndAsr]);
      const hold = h.yt.hold((r) => r.kind === 'player' && r.videoId === ID.noCaptions);
      await h.s.deps.workQueue.batchItems(batch.id, [0]);
      await hold.caughtAtLeast(1);
      expect((await cancel(key, batch.id)).status).toBe('running');
      // The video ends (failed, uncharged) while more cancels come in.
      const [, ...cancels] = await Promise.all([
        Promise.resolve(hold.release()),
        ...Array.from({ length: 6 }, () => rest(h.s.url, 'POST', `/batches/${batch.id}/cancel`, { key })),
      ]);
      for (const c of cancels) expect(c.status, c.text).toBe(200);
      const view = await ended(key, batch.id);
      expect(view.items.map((i: any) => [i.status, i.creditsCharged])).toEqual([
        ['failed', 0],
        ['cancelled', 0],
      ]);
      expect(view.status).toBe('cancelled');
      // The worker that ended the batch settles its pages just after: the status moves first.
      await pollUntil(async () => (await ledger(accountId)).length > 0, 'the listing pages charged', 20_000);
      expect(await ledger(accountId)).toEqual([{ operation: 'listing.playlist', delta: -PAGES }]);
      // The one unpaid lookup is the failed video's own (its player page), not a listing page.
      expect(await unpaid(accountId)).toBe(1);
    });

    it('a worker killed mid-video, the batch cancelled, the sweep ending the video: the pages settled once', async () => {
      const { key, accountId } = await h.s.newKey({ credits: 20, rateLimit: 100_000 });
      const deps = h.s.deps;
      const batch = await listedBatch(accountId, [ID.captions9, ID.manualAndAsr]);
      // The video's run claims it, then its worker dies before doing anything: its promise never settles.
      void runBatchItem(
        {
          batches: deps.batches,
          lookupAdmission: deps.lookupAdmission,
          listingCharges: { ledger: deps.ledger, dailyAllowance: deps.config.DAILY_FREE_CREDITS },
          webhooks: deps.webhooks,
          enqueue: async () => {},
          jobs: deps.jobs,
          log: deps.log,
          ledger: deps.ledger,
          run: () => new Promise(() => {}),
          requeue: async () => {},
        },
        { batchId: batch.id, position: 0 },
      );
      await pollUntil(
        async () =>
          (
            await deps.sql`select 1 from batch_items where batch_id = ${batch.id} and position = 0 and status = 'running'`
          ).length > 0,
        'the video is claimed',
        10_000,
      );
      expect((await cancel(key, batch.id)).status).toBe('running');
      // No job will run it again: once stale, the sweep (twice at once, beside more cancels) ends it as failed.
      await deps.sql`update batch_items set updated_at = now() - interval '1 minute' where batch_id = ${batch.id}`;
      await Promise.all([
        sweepStalledItems(sweepItemsPorts(deps)),
        sweepStalledItems(sweepItemsPorts(deps)),
        rest(h.s.url, 'POST', `/batches/${batch.id}/cancel`, { key }),
      ]);
      expect(await batchStatus(batch.id)).toBe('cancelled');
      expect((await ledger(accountId)).filter((r) => r.operation.startsWith('listing.'))).toEqual([
        { operation: 'listing.playlist', delta: -PAGES },
      ]);
      expect(await unpaid(accountId)).toBe(0);
    });

    it('a list of videos cancelled while one runs, which fails uncharged: nothing is paid', async () => {
      const { key, accountId } = await h.s.newKey({ credits: 20, rateLimit: 100_000 });
      const videos = [ID.noCaptionsLiveReplay, ID.manualAndAsr];
      const batch = await h.s.deps.batches.create({
        accountId,
        requestId: `req_videos_${accountId}`,
        operation: { type: 'transcript' },
        source: { videos: videos.length },
        callbackUrl: null,
        videoIds: videos,
      });
      const hold = h.yt.hold((r) => r.kind === 'player' && r.videoId === ID.noCaptionsLiveReplay);
      await h.s.deps.workQueue.batchItems(batch.id, [0]);
      await hold.caughtAtLeast(1);
      expect((await cancel(key, batch.id)).status).toBe('running');
      hold.release();
      const view = await ended(key, batch.id);
      expect(view).toMatchObject({ status: 'cancelled', creditsCharged: 0 });
      expect(await ledger(accountId)).toEqual([]);
      // The failed video's own lookup, and no more.
      expect(await unpaid(accountId)).toBeLessThanOrEqual(1);
    });
  },
);
