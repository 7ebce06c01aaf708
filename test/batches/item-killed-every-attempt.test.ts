// A batch item whose worker is killed on every attempt: pg-boss gives its job up after the last retry, and no run
// ever records the item's outcome. The workers' sweep (src/domain/batches/sweep-stalled-items.ts) ends the item as
// failed, the batch ends, its webhook fires, and the item reports what the ledger took: the transcript it stored and
// paid for on the first attempt stands (a charge is taken with the result it pays for), nothing else is charged,
// though the model answers after the end. Before the sweep the item stayed `running` and the batch with it, forever.
// The API instance here runs no workers; each worker is a killable instance (test/support/killable-worker.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookTransport } from '../../src/infra/webhooks/webhook-transport.ts';
import { TRANSCRIPT_PRICE } from '../../src/domain/pricing/prices.ts';
import { rest } from '../support/clients.ts';
import { createTestDatabase } from '../support/databases.ts';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { startKillableWorker, type KillableWorker } from '../support/killable-worker.ts';
import { startLoopbackYoutube, type LoopbackYoutube } from '../support/loopback-youtube.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { modelReply } from '../llm/llm-fixtures.ts';
import { ID, pollUntil, recordedRoutes } from '../transcripts/recorded-youtube.ts';

describe.skipIf(!sharedAvailable)('a batch item killed on every attempt', { timeout: 180_000 }, () => {
  let yt: LoopbackYoutube;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let api: TestServer;
  let model: FakeAnthropic;
  let receiver: WebhookReceiver;
  const workers: KillableWorker[] = [];
  // The model call of each attempt hangs until the end of the test: the worker is killed while it waits.
  let modelCalls = 0;
  let releaseModel!: () => void;
  const modelGate = new Promise<void>((r) => (releaseModel = r));
  const env = () => ({
    YOUTUBE_BASE_URL: yt.origin,
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_RETRY_BASE_MS: '50',
    ANTHROPIC_API_KEY: 'test',
    ANTHROPIC_BASE_URL: model.url,
    // pg-boss's least heartbeat: a killed worker's jobs are retried about 10-15 s after the kill.
    JOB_EXPIRE_SECONDS: '10',
  });
  const overrides = () => ({
    webhookTransport: createWebhookTransport({ policy: (ip: string) => ip === '127.0.0.1' }),
  });

  beforeAll(async () => {
    yt = await startLoopbackYoutube(recordedRoutes());
    model = await startFakeAnthropic(async (req) => {
      modelCalls++;
      await modelGate;
      return modelReply(req);
    });
    receiver = await startWebhookReceiver();
    db = await createTestDatabase();
    api = await startTestServer({ ...env(), MODE: 'api' }, overrides(), { database: db });
  });
  afterAll(async () => {
    releaseModel?.();
    for (const w of workers) await w.close();
    await api?.close();
    await Promise.all([yt?.close(), model?.close(), receiver?.close()]);
    await db?.drop();
  });

  const itemJob = async () =>
    (
      await api.deps.sql<{ state: string; retry_count: number }[]>`
        select state::text, retry_count from pgboss.job where name = 'batch-item' order by created_on limit 1`
    )[0];

  it('ends as failed with its webhook, reporting the transcript it paid for; nothing else is charged', async () => {
    const { key, accountId } = await api.newKey({ credits: 20, rateLimit: 100_000 });
    const created = await rest(api.url, 'POST', '/batches', {
      key,
      body: { videos: [ID.captions9], operation: { type: 'translation', targetLang: 'eo' }, callbackUrl: receiver.url },
    });
    expect(created.status).toBe(202);
    const batchId = created.json.id as string;

    // Three attempts (retryLimit 2), each killed while its worker holds the item and waits for the model.
    for (let attempt = 0; attempt <= 2; attempt++) {
      const w = await startKillableWorker(db.url, env(), overrides());
      workers.push(w);
      await pollUntil(
        async () => {
          const job = await itemJob();
          return job?.state === 'active' && job.retry_count === attempt && modelCalls > attempt;
        },
        `attempt ${attempt + 1} waits for the model`,
        60_000,
      );
      await w.kill();
    }
    await pollUntil(async () => (await itemJob())?.state === 'failed', 'pg-boss gives the item up', 60_000);
    const [still] = await api.deps.sql`select status from batch_items where batch_id = ${batchId}`;
    expect(still!.status).toBe('running');

    // A live worker's sweep ends it.
    workers.push(await startKillableWorker(db.url, env(), overrides()));
    let batch: any;
    await pollUntil(
      async () => (batch = (await rest(api.url, 'GET', `/batches/${batchId}`, { key })).json).status !== 'running',
      'the batch ends',
      30_000,
    );
    expect(batch).toMatchObject({ status: 'failed', creditsCharged: TRANSCRIPT_PRICE });
    expect(batch.items[0]).toMatchObject({
      status: 'failed',
      creditsCharged: TRANSCRIPT_PRICE,
      error: { code: 'INTERNAL_ERROR' },
    });
    const [hook] = await receiver.waitFor(1);
    expect(JSON.parse(hook!.body)).toMatchObject({ type: 'job.failed', data: { id: batchId, status: 'failed' } });

    // The model now answers the dead runs: nothing more is stored or charged.
    releaseModel();
    const ledger = await api.deps.sql`
      select operation, delta from credit_ledger where account_id = ${accountId} and kind <> 'grant'`;
    expect(ledger.map((r) => ({ ...r }))).toEqual([{ operation: 'subtitles', delta: -TRANSCRIPT_PRICE }]);
    const live = await api.deps.sql`
      select id from tasks where account_id = ${accountId} and status in ('queued', 'running')`;
    expect(live).toHaveLength(0);
  });
});
