// Attacks on credit holds through the running service. A batch item that gives up the work it waits on (the
// translation not finished while it waited, a transient failure retried later) fails that work's job: the
// credits it held must come back then, not only when the hold sweep next finds the job ended, or a retry of the
// same item (or the account's next request) is refused 402 for credits nobody is using.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBatchItem } from '../../src/domain/batches/run-batch-item.ts';
import { runBatchOperation } from '../../src/domain/batches/run-operation.ts';
import { rest } from '../support/clients.ts';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { modelReply, seedVideo, spreadSegments } from '../llm/llm-fixtures.ts';
import { pollUntil } from '../transcripts/recorded-youtube.ts';

let fake: FakeAnthropic;
let s: TestServer;
beforeAll(async () => {
  fake = await startFakeAnthropic(modelReply);
  s = await startTestServer({ ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: fake.url });
});
afterAll(async () => {
  await s?.close();
  await fake?.close();
});

const credits = async (key: string) => (await rest(s.url, 'GET', '/credits', { key })).json;

describe('a batch item that gives up its work', { timeout: 90_000 }, () => {
  it('gives the work’s held credits back when it fails, and the late model answer charges nobody', async () => {
    const { videoId } = await seedVideo(s.deps.sql, { duration: 120, segments: spreadSegments(120, 6) });
    const { key, accountId } = await s.newKey({ credits: 1, rateLimit: 100_000 });
    const deps = s.deps;
    const batch = await deps.batches.create({
      accountId,
      requestId: `req_giveup_${accountId}`,
      operation: { type: 'translation', sourceLang: 'en', targetLang: 'fr' },
      source: { videos: [videoId] },
      callbackUrl: null,
      videoIds: [videoId],
    });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let called = 0;
    fake.setHandler(async (req) => {
      called++;
      await gate;
      return modelReply(req);
    });
    try {
      // Run here with a short wait (the worker waits as long as an LLM job may run): the item gives its job up.
      const hurried = { ...deps, config: { ...deps.config, REQUEST_WAIT_MS: 300 } };
      await runBatchItem(
        {
          batches: deps.batches,
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
      const view = (await deps.batches.get(batch.id, accountId))!;
      expect(view.items[0]).toMatchObject({ status: 'failed', creditsCharged: 0, error: { code: 'LLM_FAILED' } });
      // Nothing holds the account's credit any more: the work it paid for was given up.
      expect(await credits(key)).toMatchObject({ balance: 1, held: 0, available: 1 });
      release();
      await pollUntil(
        async () =>
          (await deps.sql`select 1 from pgboss.job where name = 'llm' and state in ('created', 'retry', 'active')`)
            .length === 0,
        'the translation job ends',
        60_000,
      );
      expect(called).toBe(1);
      expect(await credits(key)).toMatchObject({ balance: 1, held: 0, available: 1 });
      const [acct] = await deps.sql<{ held_credits: number }[]>`
        select held_credits from accounts where id = ${accountId}`;
      expect(acct!.held_credits).toBe(0);
    } finally {
      release();
      fake.setHandler(modelReply);
    }
  });
});
