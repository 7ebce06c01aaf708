// Attacks on credit holds through the running service. A batch item that gives up the work it waits on (the
// translation not finished while it waited, a transient failure retried later) fails that work's job: the
// credits it held must come back then, not only when the hold sweep next finds the job ended, or a retry of the
// same item (or the account's next request) is refused 402 for credits nobody is using. And a frames request holds
// every new frame's credit up front but sends its jobs a few at a time: the hold sweep must not take the holds of
// frames whose jobs are not sent yet while the request still waits (they were failed 402 "no credits are held").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBatchItem } from '../../src/domain/batches/run-batch-item.ts';
import { runBatchOperation } from '../../src/domain/batches/run-operation.ts';
import { rest } from '../support/clients.ts';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { modelReply, seedVideo, spreadSegments } from '../llm/llm-fixtures.ts';
import { pollUntil } from '../transcripts/recorded-youtube.ts';
import type { FrameGrabber } from '../../src/domain/ports.ts';
import { sweepStaleHolds } from '../../src/domain/credits/holds.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { startMediaYoutube } from '../support/media-youtube.ts';

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

describe.skipIf(!sharedAvailable)('the hold sweep beside a frames request still running', { timeout: 120_000 }, () => {
  const LONG = 'Fjg5lYqvzUs';
  let yt: Awaited<ReturnType<typeof startMediaYoutube>>;
  let media: TestServer;
  let captures = 0;
  let gate: Promise<void> = Promise.resolve();
  beforeAll(async () => {
    yt = await startMediaYoutube();
    media = await startTestServer({ YOUTUBE_BASE_URL: yt.origin, FRAME_CONCURRENCY: '2' });
    const real: FrameGrabber = media.deps.frames;
    media.deps.frames = {
      ...real,
      capture: async (...args) => {
        captures++;
        await gate;
        return real.capture(...args);
      },
    };
  }, 120_000);
  afterAll(async () => {
    await media?.close();
    await yt?.close();
  });

  it('frames not sent yet keep their holds past the sweep’s grace; every frame is captured and paid once', async () => {
    const { key, accountId } = await media.newKey({ credits: 6, rateLimit: 100_000 });
    await rest(media.url, 'GET', `/videos/${LONG}`, { key });
    let open!: () => void;
    gate = new Promise<void>((r) => (open = r));
    try {
      const pending = rest(media.url, 'POST', '/frames', {
        key,
        body: { videoId: LONG, timestamps: [21, 22, 23, 24, 25, 26], width: 160 },
      });
      await pollUntil(async () => captures >= 2, 'two captures run', 60_000);
      // 40 s on (past the sweep's 30 s, within the request's wait): the workers' sweep, as it would run then.
      await media.deps
        .sql`update credit_holds set created_at = now() - interval '40 seconds' where account_id = ${accountId}`;
      await sweepStaleHolds(media.deps);
      expect((await rest(media.url, 'GET', '/credits', { key })).json).toMatchObject({ held: 6 });
      open();
      const answer = await pending;
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ failed: [], creditsCharged: 6 });
      expect(answer.json.frames).toHaveLength(6);
      expect((await rest(media.url, 'GET', '/credits', { key })).json).toMatchObject({ balance: 0, held: 0 });
    } finally {
      open();
      gate = Promise.resolve();
    }
  });
});
