// Batches of articles and translations, through REST, tRPC and MCP against the real service: YouTube replayed from
// the recorded fixtures, a loopback Anthropic API. Each video is charged what its single-video request costs, only
// when its result is stored; a video that fails after its transcript was extracted pays for that transcript only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hourlyPrice, pricedDuration, TRANSCRIPT_PRICE } from '../../src/domain/pricing/prices.ts';
import { mcpClient, rest, trpcClient } from '../support/clients.ts';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { browseAvailable } from '../support/youtube-browse-replay.ts';
import { modelReply } from '../llm/llm-fixtures.ts';
import { balanceOf, ID, pollUntil } from '../transcripts/recorded-youtube.ts';
import { startBatchHarness, type BatchHarness } from './batch-harness.ts';

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

/** Keys that poll a batch every few milliseconds until it ends (LLM retries take seconds) need room. */
const POLLING = 100_000;

/** The batch once it has ended, read over REST. */
async function finished(key: string, id: string) {
  let batch: any;
  await pollUntil(
    async () => (batch = (await rest(h.s.url, 'GET', `/batches/${id}`, { key })).json).status !== 'running',
    `batch ${id} ends`,
    120_000,
  );
  return batch;
}

/** What the hourly part of a video's price is, from its duration as the service reports it. */
async function hourly(key: string, videoId: string): Promise<number> {
  const info = await rest(h.s.url, 'GET', `/videos/${videoId}`, { key });
  return hourlyPrice(pricedDuration(info.json.duration, 0));
}

const ledger = (accountId: string) =>
  h.s.deps.sql<{ kind: string; operation: string; delta: number }[]>`
    select kind, operation, delta from credit_ledger where account_id = ${accountId} and kind <> 'grant' order by id`;

describe.skipIf(!sharedAvailable || !browseAvailable)('batch operations', { timeout: 180_000 }, () => {
  it('REST: articles answer 202 with Location; each video that succeeds costs its transcript and its hours, a failure nothing', async () => {
    const { key } = await h.s.newKey({ credits: 50, rateLimit: POLLING });
    const created = await rest(h.s.url, 'POST', '/batches', {
      key,
      body: { videos: [ID.captions9, ID.noCaptions], operation: { type: 'article', lang: 'en', length: 'short' } },
    });
    expect(created.status).toBe(202);
    expect(created.headers.get('location')).toBe(`/api/v1/batches/${created.json.id}`);
    expect(created.json).toMatchObject({
      status: 'running',
      operation: { type: 'article', lang: 'en', length: 'short' },
      counts: { total: 2 },
    });

    const batch = await finished(key, created.json.id);
    const price = TRANSCRIPT_PRICE + (await hourly(key, ID.captions9));
    expect(batch).toMatchObject({ status: 'succeeded', counts: { succeeded: 1, failed: 1 }, creditsCharged: price });
    expect(batch.items[0]).toMatchObject({
      status: 'succeeded',
      creditsCharged: price,
      error: null,
      result: { type: 'article', lang: 'en', length: 'short', cached: false },
    });
    expect(batch.items[1]).toMatchObject({
      status: 'failed',
      creditsCharged: 0,
      result: null,
      error: { code: 'NO_SUBTITLES' },
    });
    expect(await balanceOf(h.s, key)).toBe(50 - price);

    // The article is stored: reading it is free.
    const article = await rest(h.s.url, 'GET', `/articles/${batch.items[0].result.articleId}`, { key });
    expect(article.status).toBe(200);
    expect(article.json.title).toBe(batch.items[0].result.title);
    expect(await balanceOf(h.s, key)).toBe(50 - price);
  });

  it('tRPC: translations, the transcript fetched first when it is not stored', async () => {
    const { key } = await h.s.newKey({ credits: 50, rateLimit: POLLING });
    const api = trpcClient(h.s.url, key);
    const created = await api.batches.create.mutate({
      videos: [ID.manualAndAsr],
      operation: { type: 'translation', targetLang: 'eo' },
    });
    expect(created).toMatchObject({ status: 'running', operation: { type: 'translation', targetLang: 'eo' } });
    await pollUntil(
      async () => (await api.batches.get.query({ id: created.id })).status !== 'running',
      'the batch ends',
      120_000,
    );
    const batch = await api.batches.get.query({ id: created.id });
    const price = TRANSCRIPT_PRICE + (await hourly(key, ID.manualAndAsr));
    expect(batch).toMatchObject({ status: 'succeeded', counts: { succeeded: 1 }, creditsCharged: price });
    expect(batch.items[0]!.result).toMatchObject({ type: 'translation', targetLang: 'eo', cached: false });
    expect(await balanceOf(h.s, key)).toBe(50 - price);

    // Stored: the translation answers as the video's Esperanto transcript, free.
    const t = await rest(h.s.url, 'POST', '/subtitles', { key, body: { videoId: ID.manualAndAsr, lang: 'eo' } });
    expect(t.json).toMatchObject({ source: 'translation', lang: 'eo', creditsCharged: 0 });
  });

  it('a video whose translation fails costs only the transcript extracted and stored for it, which is then free to read', async () => {
    const { key, accountId } = await h.s.newKey({ credits: 20, rateLimit: POLLING });
    fake.setHandler(() => ({ status: 500 }));
    try {
      const created = await rest(h.s.url, 'POST', '/batches', {
        key,
        body: { videos: [ID.manualAndAsrVisionos], operation: { type: 'translation', targetLang: 'eo' } },
      });
      const batch = await finished(key, created.json.id);
      expect(batch).toMatchObject({ status: 'failed', creditsCharged: TRANSCRIPT_PRICE, counts: { failed: 1 } });
      expect(batch.items[0]).toMatchObject({
        status: 'failed',
        creditsCharged: TRANSCRIPT_PRICE,
        error: { code: 'LLM_FAILED' },
      });
    } finally {
      fake.setHandler(modelReply);
    }
    expect(await balanceOf(h.s, key)).toBe(20 - TRANSCRIPT_PRICE);
    expect(await ledger(accountId)).toEqual([{ kind: 'charge', operation: 'subtitles', delta: -TRANSCRIPT_PRICE }]);
    const t = await rest(h.s.url, 'POST', '/subtitles', { key, body: { videoId: ID.manualAndAsrVisionos } });
    expect(t.json).toMatchObject({ cached: true, creditsCharged: 0 });
  });

  it('MCP: an article batch, followed with get_batch, reads as a line per video', async () => {
    const { key } = await h.s.newKey({ credits: 20, rateLimit: POLLING });
    const client = await mcpClient(h.s.url, key);
    try {
      const created: any = await client.callTool({
        name: 'create_batch',
        arguments: { videos: [ID.own], operation: { type: 'article', lang: 'en' } },
      });
      expect(created.isError, JSON.stringify(created.content)).toBeFalsy();
      const id = created.structuredContent.id;
      await pollUntil(
        async () =>
          ((await client.callTool({ name: 'get_batch', arguments: { id } })) as any).structuredContent.status !==
          'running',
        'the batch ends',
        120_000,
      );
      const done: any = await client.callTool({ name: 'get_batch', arguments: { id } });
      expect(done.structuredContent).toMatchObject({
        status: 'succeeded',
        operation: { type: 'article' },
        items: [{ status: 'succeeded', result: { type: 'article' } }],
      });
      const articleId = done.structuredContent.items[0].result.articleId;
      expect(done.content[0].text).toContain(`1. ${ID.own} ok: article ${articleId}`);
      expect(done.content[0].text).toContain('get_article');
    } finally {
      await client.close();
    }
  });

  it('refuses up front with 402 at the operation’s price per video, saying how many the balance covers', async () => {
    const { key } = await h.s.newKey({ credits: 5, rateLimit: POLLING });
    const before = h.yt.requests.length;
    const r = await rest(h.s.url, 'POST', '/batches', {
      key,
      body: { videos: [ID.tracks19, ID.web15], operation: { type: 'article', lang: 'en' } },
    });
    expect(r.status).toBe(402);
    const perVideo = TRANSCRIPT_PRICE + hourlyPrice(1);
    expect(r.json.error).toEqual({
      code: 'INSUFFICIENT_CREDITS',
      message: expect.stringMatching(
        new RegExp(
          `^A batch of 2 videos may cost ${2 * perVideo} credits or more \\(${perVideo} per video of up to an hour: .*the balance is 5, enough for 1 video\\.`,
        ),
      ),
    });
    expect(h.yt.requests.length).toBe(before);
    expect(await balanceOf(h.s, key)).toBe(5);
  });
});
