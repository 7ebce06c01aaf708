// What a batch item is charged, against the real service and PostgreSQL: every stored result was paid once by the
// account that asked for it, the item reports what the ledger took, and a worker killed mid-item does not leave its
// batch running. Rule: a charge is only ever taken in the transaction that stores its result, so it stands; nothing
// is refunded, and work that cannot succeed is refused before anything is extracted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBatchItem } from '../../src/domain/batches/run-batch-item.ts';
import { runBatchOperation } from '../../src/domain/batches/run-operation.ts';
import { TRANSCRIPT_PRICE } from '../../src/domain/pricing/prices.ts';
import { batchItemHandler } from '../../src/jobs/batch-item-worker.ts';
import { rest } from '../support/clients.ts';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { modelReply } from '../llm/llm-fixtures.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { browseAvailable } from '../support/youtube-browse-replay.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { ID, pollUntil } from '../transcripts/recorded-youtube.ts';
import { startBatchHarness, type BatchHarness } from './batch-harness.ts';

let h: BatchHarness;
let receiver: WebhookReceiver;
let fake: FakeAnthropic;
beforeAll(async () => {
  if (!sharedAvailable || !browseAvailable) return;
  fake = await startFakeAnthropic(modelReply);
  h = await startBatchHarness({ ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: fake.url });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await h?.close();
  await fake?.close();
  await receiver?.close();
});

const POLLING = 100_000;

async function finished(key: string, id: string) {
  let batch: any;
  await pollUntil(
    async () => (batch = (await rest(h.s.url, 'GET', `/batches/${id}`, { key })).json).status !== 'running',
    `batch ${id} ends`,
    20_000,
  );
  return batch;
}

const ledger = (accountId: string) =>
  h.s.deps.sql<{ kind: string; operation: string; delta: number }[]>`
    select kind, operation, delta from credit_ledger where account_id = ${accountId} and kind <> 'grant' order by id`;

const storedTranscripts = (videoId: string) =>
  h.s.deps.sql<{ lang: string }[]>`select lang from transcripts where video_id = ${videoId}`;

describe.skipIf(!sharedAvailable || !browseAvailable)('batch item charges', { timeout: 120_000 }, () => {
  it('a translation into the transcript’s own language is refused before anything is extracted or charged', async () => {
    const { key, accountId } = await h.s.newKey({ credits: 20, rateLimit: POLLING });
    // The video's only track is German; no sourceLang, so the item finds that out from the track list.
    const created = await rest(h.s.url, 'POST', '/batches', {
      key,
      body: { videos: [ID.manualOnlyDe], operation: { type: 'translation', targetLang: 'de' } },
    });
    expect(created.status).toBe(202);
    const batch = await finished(key, created.json.id);
    expect(batch).toMatchObject({ status: 'failed', creditsCharged: 0 });
    expect(batch.items[0]).toMatchObject({ status: 'failed', creditsCharged: 0, error: { code: 'INVALID_REQUEST' } });
    expect(await ledger(accountId)).toEqual([]);
    // Nothing was stored for free: another account asking for the transcript pays for it.
    expect(await storedTranscripts(ID.manualOnlyDe)).toEqual([]);
    const other = await h.s.newKey({ credits: 5 });
    const t = await rest(h.s.url, 'POST', '/subtitles', { key: other.key, body: { videoId: ID.manualOnlyDe } });
    expect(t.json).toMatchObject({ cached: false, creditsCharged: TRANSCRIPT_PRICE });
  });

  it('a stored transcript keeps its charge when the item fails later: the item reports it and nothing is refunded', async () => {
    const { key, accountId } = await h.s.newKey({ credits: 20, rateLimit: POLLING });
    // The model fails: the translation fails after the transcript was extracted and stored for this item.
    fake.setHandler(() => ({ status: 500 }));
    let batch: any;
    try {
      const created = await rest(h.s.url, 'POST', '/batches', {
        key,
        body: { videos: [ID.tracks19], operation: { type: 'translation', targetLang: 'eo' } },
      });
      batch = await finished(key, created.json.id);
    } finally {
      fake.setHandler(modelReply);
    }
    expect(batch.items[0]).toMatchObject({ status: 'failed', creditsCharged: TRANSCRIPT_PRICE });
    expect(batch).toMatchObject({ status: 'failed', creditsCharged: TRANSCRIPT_PRICE });
    expect(await ledger(accountId)).toEqual([{ kind: 'charge', operation: 'subtitles', delta: -TRANSCRIPT_PRICE }]);
    expect((await storedTranscripts(ID.tracks19)).length).toBeGreaterThan(0);
  });

  it('a worker killed mid-item: the retried job reclaims the item, the batch ends, its webhook fires, and the reported credits equal the ledger', async () => {
    const { key, accountId } = await h.s.newKey({ credits: 20, rateLimit: POLLING });
    const deps = h.s.deps;
    const batch = await deps.batches.create({
      accountId,
      requestId: `req_killed_${accountId}`,
      operation: { type: 'transcript' },
      source: { videos: [ID.web15] },
      callbackUrl: receiver.url,
      videoIds: [ID.web15],
    });
    const start = receiver.received.length;
    // The first run does the work (and is charged for it), then its worker dies before recording the outcome: its
    // promise never settles, as a process killed there would never continue.
    let charged!: () => void;
    const didCharge = new Promise<void>((r) => (charged = r));
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
        run: async (item) => {
          await runBatchOperation(deps, item);
          charged();
          return new Promise(() => {});
        },
        requeue: async () => {},
      },
      { batchId: batch.id, position: 0 },
      { retryCount: 0 },
    );
    await didCharge;
    expect(await ledger(accountId)).toEqual([{ kind: 'charge', operation: 'subtitles', delta: -TRANSCRIPT_PRICE }]);

    // pg-boss runs the job again once the dead worker's heartbeat is stale: the same payload, its retry count up.
    await batchItemHandler(deps)({ batchId: batch.id, position: 0 }, { retryCount: 1 });

    const view = await finished(key, batch.id);
    expect(view).toMatchObject({ status: 'succeeded', creditsCharged: TRANSCRIPT_PRICE });
    expect(view.items[0]).toMatchObject({ status: 'succeeded', creditsCharged: TRANSCRIPT_PRICE });
    expect(await ledger(accountId)).toEqual([{ kind: 'charge', operation: 'subtitles', delta: -TRANSCRIPT_PRICE }]);
    const [hook] = (await receiver.waitFor(start + 1)).slice(start);
    expect(JSON.parse(hook!.body)).toMatchObject({ type: 'job.completed', data: { id: batch.id } });
  });
});
