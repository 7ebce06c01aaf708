// Batch items whose work fails for a while, through the real queue and PostgreSQL: a SERVICE_BUSY (YouTube's egress
// out of budget) puts the video back in the queue for when the budget says, instead of failing it; an unexpected
// error (a database blip) is retried the same way, a bounded number of times, then fails the video, charged only for
// what was stored for it; and an article not finished while the item waited is given up, so its job finishing later
// charges nobody. Retries are moved to now (the wait they were given is checked first) rather
// than waited for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BATCH_ITEM_ATTEMPTS, runBatchItem } from '../../src/domain/batches/run-batch-item.ts';
import { runBatchOperation } from '../../src/domain/batches/run-operation.ts';
import { TRANSCRIPT_PRICE } from '../../src/domain/pricing/prices.ts';
import { rest } from '../support/clients.ts';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { browseAvailable } from '../support/youtube-browse-replay.ts';
import { modelReply } from '../llm/llm-fixtures.ts';
import { ID, pollUntil } from '../transcripts/recorded-youtube.ts';
import { startBatchHarness, type BatchHarness } from './batch-harness.ts';

const run = sharedAvailable && browseAvailable;

async function finished(h: BatchHarness, key: string, id: string) {
  let batch: any;
  await pollUntil(
    async () => (batch = (await rest(h.s.url, 'GET', `/batches/${id}`, { key })).json).status !== 'running',
    `batch ${id} ends`,
    120_000,
  );
  return batch;
}

const ledger = (h: BatchHarness, accountId: string) =>
  h.s.deps.sql<{ kind: string; operation: string; delta: number }[]>`
    select kind, operation, delta from credit_ledger where account_id = ${accountId} and kind <> 'grant' order by id`;

/** The item's job sent again for `attempt`, once it exists: its wait in seconds. */
async function retryOf(h: BatchHarness, batchId: string, attempt: number): Promise<number> {
  let rows: { wait: number }[] = [];
  await pollUntil(
    async () =>
      (rows = await h.s.deps.sql<{ wait: number }[]>`
        select extract(epoch from start_after - now())::float8 as wait from pgboss.job
        where name = 'batch-item' and state = 'created' and data->>'batchId' = ${batchId} and (data->>'attempt')::int = ${attempt}`)
        .length > 0,
    `attempt ${attempt} of ${batchId} is queued`,
    60_000,
  );
  return rows[0]!.wait;
}

/** The queued retry starts now instead of after its wait. */
const startNow = (h: BatchHarness, batchId: string) =>
  h.s.deps
    .sql`update pgboss.job set start_after = now() where name = 'batch-item' and state = 'created' and data->>'batchId' = ${batchId}`;

const itemStatus = async (h: BatchHarness, batchId: string, position: number) =>
  (
    await h.s.deps.sql<
      { status: string }[]
    >`select status from batch_items where batch_id = ${batchId} and position = ${position}`
  )[0]!.status;

describe.skipIf(!run)('a batch item out of YouTube budget', { timeout: 180_000 }, () => {
  let h: BatchHarness;
  beforeAll(async () => {
    h = await startBatchHarness({ YOUTUBE_REQUESTS_PER_HOUR: '5' });
  });
  afterAll(() => h?.close());

  it('goes back to the queue for when the budget allows (not failed, nothing charged), and succeeds then', async () => {
    const { key, accountId } = await h.s.newKey({ credits: 20, rateLimit: 100_000 });
    // One request, then the rest of the hour's budget spent.
    expect((await rest(h.s.url, 'GET', `/videos/${ID.captions9}`, { key })).status).toBe(200);
    await h.s.deps.sql`update youtube_identities set used = 5`;
    const created = await rest(h.s.url, 'POST', '/batches', { key, body: { videos: [ID.manualAndAsr] } });
    expect(created.status).toBe(202);
    const id = created.json.id;

    // SERVICE_BUSY: the video waits for the window to end, queued, the batch running, nothing charged.
    const wait = await retryOf(h, id, 2);
    expect(wait).toBeGreaterThan(3000);
    expect(wait).toBeLessThanOrEqual(3600);
    const mid = (await rest(h.s.url, 'GET', `/batches/${id}`, { key })).json;
    expect(mid).toMatchObject({ status: 'running', creditsCharged: 0, items: [{ status: 'queued', error: null }] });
    expect(await ledger(h, accountId)).toEqual([]);

    // The hour is over.
    await h.s.deps.sql`update youtube_identities set window_start = null, used = 0`;
    await startNow(h, id);
    const batch = await finished(h, key, id);
    expect(batch).toMatchObject({ status: 'succeeded', counts: { succeeded: 1 }, creditsCharged: TRANSCRIPT_PRICE });
    expect(await ledger(h, accountId)).toEqual([{ kind: 'charge', operation: 'subtitles', delta: -TRANSCRIPT_PRICE }]);
  });
});

describe.skipIf(!run)(
  'a batch item whose work fails unexpectedly, or is not finished in time',
  { timeout: 180_000 },
  () => {
    let h: BatchHarness;
    let fake: FakeAnthropic;
    beforeAll(async () => {
      fake = await startFakeAnthropic(modelReply);
      h = await startBatchHarness({ ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: fake.url });
    });
    afterAll(async () => {
      await h?.close();
      await fake?.close();
    });

    it('an unexpected error is retried later, up to the bound; then the video fails, charged only for what was stored, and the batch ends', async () => {
      const { key, accountId } = await h.s.newKey({ credits: 20, rateLimit: 100_000 });
      // A database blip, every time the translation of this video is looked up.
      const translations = h.s.deps.translations;
      const read = translations.read;
      translations.read = async (videoId, ...args) => {
        if (videoId === ID.manualAndAsr) throw new Error('Connection terminated unexpectedly');
        return read(videoId, ...args);
      };
      try {
        const created = await rest(h.s.url, 'POST', '/batches', {
          key,
          body: { videos: [ID.manualAndAsr], operation: { type: 'translation', targetLang: 'eo' } },
        });
        const id = created.json.id;
        for (let attempt = 2; attempt <= BATCH_ITEM_ATTEMPTS; attempt++) {
          const wait = await retryOf(h, id, attempt);
          expect(wait).toBeGreaterThan(0);
          // Between attempts the video is queued again, nothing held back from the account, the batch still running.
          expect(await itemStatus(h, id, 0)).toBe('queued');
          expect((await rest(h.s.url, 'GET', `/batches/${id}`, { key })).json.status).toBe('running');
          await startNow(h, id);
        }
        const batch = await finished(h, key, id);
        expect(batch).toMatchObject({ status: 'failed', creditsCharged: TRANSCRIPT_PRICE, counts: { failed: 1 } });
        expect(batch.items[0]).toMatchObject({
          status: 'failed',
          creditsCharged: TRANSCRIPT_PRICE,
          error: { code: 'INTERNAL_ERROR' },
        });
      } finally {
        translations.read = read;
      }
      // The first attempt extracted (and paid for) the transcript, which stays stored and charged; later ones found
      // it stored.
      expect(await ledger(h, accountId)).toEqual([
        { kind: 'charge', operation: 'subtitles', delta: -TRANSCRIPT_PRICE },
      ]);
    });

    it('an article not finished while the item waited: the item fails, its task is given up, and the article finishing later charges nobody', async () => {
      const { accountId } = await h.s.newKey({ credits: 50 });
      const deps = h.s.deps;
      // The transcript is stored beforehand (by someone else), so the item's only work is the article.
      const other = await h.s.newKey({ credits: 10 });
      expect(
        (await rest(h.s.url, 'POST', '/subtitles', { key: other.key, body: { videoId: ID.captions9 } })).status,
      ).toBe(200);
      // The batch is made in the store and its item run here with a short wait (the worker waits as long as an LLM
      // job may run); the article's job runs on the service's own LLM worker, held until the item has given up.
      const batch = await deps.batches.create({
        accountId,
        requestId: `req_held_${accountId}`,
        operation: { type: 'article', lang: 'en', length: 'short' },
        source: { videos: [ID.captions9] },
        callbackUrl: null,
        videoIds: [ID.captions9],
      });
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let asked = false;
      fake.setHandler(async (req) => {
        asked = true;
        await held;
        return modelReply(req);
      });
      try {
        const hurried = { ...deps, config: { ...deps.config, REQUEST_WAIT_MS: 300 } };
        await runBatchItem(
          {
            batches: deps.batches,
            lookupAdmission: deps.lookupAdmission,
            listingCharges: { ledger: deps.ledger, dailyAllowance: deps.config.DAILY_FREE_CREDITS },
            webhooks: deps.webhooks,
            enqueue: async () => {},
            jobs: deps.jobs,
            log: deps.log,
            run: (item) => runBatchOperation(hurried, item),
            ledger: deps.ledger,
            requeue: async () => {
              throw new Error('not a transient failure');
            },
          },
          { batchId: batch.id, position: 0 },
        );
        expect(asked).toBe(true);
      } finally {
        release();
        fake.setHandler(modelReply);
      }
      const view = (await deps.batches.get(batch.id, accountId))!;
      expect(view.items[0]).toMatchObject({ status: 'failed', creditsCharged: 0, error: { code: 'LLM_FAILED' } });
      // The article's job ends (it finds nobody waiting for it) and charges nothing.
      await pollUntil(
        async () =>
          (await deps.sql`select 1 from pgboss.job where name = 'llm' and state in ('created', 'retry', 'active')`)
            .length === 0,
        'the article job ends',
        60_000,
      );
      expect(await ledger(h, accountId)).toEqual([]);
    });
  },
);
