// Pay before work: credits are held before any work that spends the operator's money starts, so a caller who cannot
// pay never makes the service call a model, an engine, ffmpeg or YouTube. Found by a review of 605af9c: an account
// with 1 credit asking for 6 translations at once got 1 answer and 5 × 402, but the model was called 6 times (the
// charge was settled after the model ran).
import { describe, expect, it } from 'vitest';
import { rest } from '../support/clients.ts';
import { useModelService } from '../support/model-service.ts';
import { modelReply } from '../llm/llm-fixtures.ts';
import { sweepStaleHolds } from '../../src/domain/credits/holds.ts';
import { sweepStalledJobs } from '../../src/domain/jobs/sweep-stalled-jobs.ts';
import { LLM_QUEUE } from '../../src/jobs/queues.ts';

const h = useModelService();

const holdsOf = (accountId: string) =>
  h.s.deps.sql<{ status: string; amount: number }[]>`
    select status, amount from credit_holds where account_id = ${accountId} order by id`;

const credits = async (key: string) => (await rest(h.s.url, 'GET', '/credits', { key })).json;

/** Each status and how many answered it. */
const tally = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((t, x) => {
    t[x] = (t[x] ?? 0) + 1;
    return t;
  }, {});

describe('language model work is paid before the model is called', () => {
  it('6 translations at once with 1 credit: 1 answer, 5 × 402, and the model called once', async () => {
    const videos = await h.shortVideos(6);
    const { key, accountId } = await h.s.newKey({ credits: 1 });
    const before = h.fake.requests.length;
    const answers = await Promise.all(
      videos.map(({ videoId }) =>
        rest(h.s.url, 'POST', '/transcripts/translate', { key, body: { videoId, sourceLang: 'en', targetLang: 'fr' } }),
      ),
    );
    expect(tally(answers.map((a) => a.status))).toEqual({ 200: 1, 402: 5 });
    for (const a of answers.filter((x) => x.status === 402)) expect(a.json.error.code).toBe('INSUFFICIENT_CREDITS');
    expect(h.fake.requests.length - before).toBe(1);
    expect(await holdsOf(accountId)).toEqual([{ status: 'settled', amount: 1 }]);
    expect(await credits(key)).toMatchObject({ balance: 0, held: 0, available: 0 });
  });

  it('6 articles at once with 1 credit: 1 article, 5 × 402, and the model called once', async () => {
    const videos = await h.shortVideos(6);
    const { key } = await h.s.newKey({ credits: 1 });
    const before = h.fake.requests.length;
    const answers = await Promise.all(
      videos.map(({ videoId }) => rest(h.s.url, 'POST', '/summaries', { key, body: { videoId, lang: 'en' } })),
    );
    expect(tally(answers.map((a) => a.status))).toEqual({ 200: 1, 402: 5 });
    expect(h.fake.requests.length - before).toBe(1);
    expect(await credits(key)).toMatchObject({ balance: 0, held: 0, available: 0 });
  });

  it('N parallel requests with credits for K reserve exactly K holds', async () => {
    const videos = await h.shortVideos(8);
    const { key, accountId } = await h.s.newKey({ credits: 3 });
    const answers = await Promise.all(
      videos.map(({ videoId }) =>
        rest(h.s.url, 'POST', '/transcripts/translate', { key, body: { videoId, sourceLang: 'en', targetLang: 'de' } }),
      ),
    );
    expect(tally(answers.map((a) => a.status))).toEqual({ 200: 3, 402: 5 });
    const holds = await holdsOf(accountId);
    expect(holds).toHaveLength(3);
    expect(holds.every((h) => h.status === 'settled')).toBe(true);
    const [account] = await h.s.deps.sql<{ purchased_balance: number; held_credits: number }[]>`
      select purchased_balance, held_credits from accounts where id = ${accountId}`;
    expect(account).toEqual({ purchased_balance: 0, held_credits: 0 });
  });

  it('GET /credits shows what work under way holds, and gives it back when the work fails', async () => {
    const videoId = (await h.shortVideos(1))[0]!.videoId;
    const { key, accountId } = await h.s.newKey({ credits: 3 });
    // A model that takes its time, then fails for good: the hold is visible meanwhile, and released after.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    h.fake.setHandler(async () => {
      await gate;
      return { status: 400, message: 'refused' };
    });
    try {
      const pending = rest(h.s.url, 'POST', '/transcripts/translate', {
        key,
        body: { videoId, sourceLang: 'en', targetLang: 'it' },
      });
      await expect.poll(async () => (await holdsOf(accountId)).length, { timeout: 20_000 }).toBe(1);
      expect(await credits(key)).toMatchObject({ balance: 3, held: 1, available: 2 });
      release();
      expect((await pending).status).toBe(502);
      expect(await holdsOf(accountId)).toEqual([{ status: 'released', amount: 1 }]);
      expect(await credits(key)).toMatchObject({ balance: 3, held: 0, available: 3 });
    } finally {
      h.fake.setHandler(modelReply);
    }
  });
});

describe('a killed worker', () => {
  it('leaves a hold that the sweep releases once its job is gone: the credits come back', async () => {
    const videoId = (await h.shortVideos(1))[0]!.videoId;
    const { key, accountId } = await h.s.newKey({ credits: 2 });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    h.fake.setHandler(async (req) => {
      await gate;
      return modelReply(req);
    });
    try {
      const pending = rest(h.s.url, 'POST', '/transcripts/translate', {
        key,
        body: { videoId, sourceLang: 'en', targetLang: 'nl' },
      });
      // The worker has taken the job and is calling the model.
      await expect
        .poll(async () => (await h.s.deps.sql`select status from tasks where account_id = ${accountId}`)[0]?.status, {
          timeout: 20_000,
        })
        .toBe('running');
      expect(await credits(key)).toMatchObject({ held: 1, available: 1 });
      // What pg-boss does once the last attempt's heartbeat runs out (the worker was killed every time): the job
      // ends failed with no outcome of ours, and nothing of ours moved the task or the hold; time passes.
      await h.s.deps.sql`update pgboss.job set state = 'failed', completed_on = now()
        where name = ${LLM_QUEUE} and singleton_key like ${`tr:${videoId}:%`}`;
      await h.s.deps.sql`update tasks set updated_at = now() - interval '1 minute' where account_id = ${accountId}`;
      await h.s.deps
        .sql`update credit_holds set created_at = now() - interval '1 minute' where account_id = ${accountId}`;
      // The workers' periodic sweep (called here too: it may already have run): the task settled, its hold released.
      await sweepStalledJobs(h.s.deps);
      await sweepStaleHolds(h.s.deps);
      expect(await holdsOf(accountId)).toEqual([{ status: 'released', amount: 1 }]);
      expect(await credits(key)).toMatchObject({ balance: 2, held: 0, available: 2 });
      release();
      await pending;
      expect(await credits(key)).toMatchObject({ balance: 2, held: 0, available: 2 });
    } finally {
      h.fake.setHandler(modelReply);
    }
  });
});
