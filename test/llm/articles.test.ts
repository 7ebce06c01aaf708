// POST /api/v1/summaries and MCP summarize_video: with a (loopback) LLM, and with the extractive generator on a
// server without one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpClient, rest } from '../support/clients.ts';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { fakeVideoSource, freshVideoId } from '../support/fake-video-source.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { modelReply, seedVideo, spreadSegments } from './llm-fixtures.ts';

let fake: FakeAnthropic;
let s: TestServer;
let bare: TestServer;
beforeAll(async () => {
  fake = await startFakeAnthropic(modelReply);
  [s, bare] = await Promise.all([
    startTestServer({ ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: fake.url }, { youtube: fakeVideoSource() }),
    startTestServer({}, { youtube: fakeVideoSource() }),
  ]);
});
afterAll(async () => {
  await Promise.all([s?.close(), bare?.close()]);
  await fake?.close();
});

const summarize = (t: TestServer, key: string, body: unknown) => rest(t.url, 'POST', '/summaries', { key, body });
const charges = (t: TestServer, accountId: string) =>
  t.deps.sql<
    { delta: number; operation: string }[]
  >`select delta, operation from credit_ledger where account_id = ${accountId} and kind = 'charge' order by id`;

function expectSectionsWithin(article: { sections: Array<{ start: number; end: number }> }, duration: number) {
  expect(article.sections.length).toBeGreaterThan(0);
  let prev = 0;
  for (const sec of article.sections) {
    expect(sec.start).toBeGreaterThanOrEqual(prev);
    expect(sec.end).toBeGreaterThanOrEqual(sec.start);
    expect(sec.end).toBeLessThanOrEqual(duration);
    prev = sec.start;
  }
}

describe('with an LLM', () => {
  it('writes an article from the stored transcript, stores and indexes it, and a repeat is free', async () => {
    const { videoId } = await seedVideo(s.deps.sql, { duration: 3000, title: 'Quantum physics explained' });
    const { key, accountId } = await s.newKey({ credits: 2 });
    const r = await summarize(s, key, { videoId, lang: 'en', length: 'short' });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      status: 'succeeded',
      cached: false,
      creditsCharged: 1,
      job: { kind: 'summary', status: 'succeeded', creditsCharged: 1 },
    });
    const a = r.json.article;
    expect(a).toMatchObject({
      videoId,
      lang: 'en',
      length: 'short',
      sourceLang: 'en',
      category: 'science',
      generator: { kind: 'llm', model: expect.any(String) },
    });
    expect(a.id).toMatch(/^art_/);
    expectSectionsWithin(a, 3000);
    // 3000 s is more than one window: notes per 20 minutes, then the article.
    expect(fake.requests.filter((q) => JSON.stringify(q.body).includes('part from t=')).length).toBeGreaterThanOrEqual(
      3,
    );

    const [row] = await s.deps.sql<
      { search_config: string; search_text: string }[]
    >`select search_config::text, search_text from articles where id = ${a.id}`;
    expect(row).toMatchObject({ search_config: 'english' });
    expect(row!.search_text).toContain('first point');
    expect(row!.search_text).toContain('Part 2');
    const found = await rest(s.url, 'GET', '/articles', { key, query: { query: 'Generated article title' } });
    expect(found.json.results.map((h: { id: string }) => h.id)).toContain(a.id);
    expect((await rest(s.url, 'GET', `/articles/${a.id}`, { key })).json).toEqual(a);

    const before = fake.requests.length;
    const again = await summarize(s, key, { url: `https://youtu.be/${videoId}`, lang: 'en', length: 'short' });
    expect(again.json).toMatchObject({ status: 'succeeded', cached: true, creditsCharged: 0, article: { id: a.id } });
    expect(fake.requests.length).toBe(before);
    expect(await charges(s, accountId)).toEqual([{ delta: -1, operation: 'summary' }]);
    const usage = await s.deps.sql`select operation, input_tokens from llm_usage where task_id = ${r.json.job.id}`;
    expect(usage).toEqual([{ operation: 'summary', input_tokens: expect.any(Number) }]);
  });

  it('writes in the requested language from another language’s transcript; length and sourceLang are separate variants', async () => {
    const { videoId } = await seedVideo(s.deps.sql, { duration: 600 });
    const { key } = await s.newKey({ credits: 5 });
    const fr = await summarize(s, key, { videoId, lang: 'fr', sourceLang: 'en' });
    expect(fr.json.article).toMatchObject({ lang: 'fr', sourceLang: 'en', length: 'medium' });
    const long = await summarize(s, key, { videoId, lang: 'fr', length: 'long' });
    expect(long.json.cached).toBe(false);
    expect(long.json.article.id).not.toBe(fr.json.article.id);
    expect((await summarize(s, key, { videoId, lang: 'fr' })).json).toMatchObject({
      cached: true,
      article: { id: fr.json.article.id },
    });
  });

  it('extracts the transcript first when none is stored, charged as subtitles (2) plus the summary', async () => {
    const videoId = freshVideoId(); // the fake video source: 60 s, one English track
    const { key, accountId } = await s.newKey({ credits: 3 });
    const r = await summarize(s, key, { videoId, lang: 'en' });
    expect(r.status).toBe(200);
    expect(r.json.creditsCharged).toBe(3);
    expectSectionsWithin(r.json.article, 60);
    expect(await charges(s, accountId)).toEqual([
      { delta: -2, operation: 'subtitles' },
      { delta: -1, operation: 'summary' },
    ]);
  });

  it('402 before extracting when extraction plus summary is unaffordable', async () => {
    const videoId = freshVideoId();
    const { key, accountId } = await s.newKey({ credits: 2 });
    const r = await summarize(s, key, { videoId, lang: 'en' });
    expect(r.status).toBe(402);
    expect(await charges(s, accountId)).toEqual([]);
    expect(await s.deps.sql`select 1 from transcripts where video_id = ${videoId}`).toHaveLength(0);
  });

  it('402 up front for a stored transcript: 1 credit per started hour', async () => {
    const { videoId } = await seedVideo(s.deps.sql, { duration: 3 * 3600, segments: spreadSegments(3 * 3600, 50) });
    const { key } = await s.newKey({ credits: 2 });
    const before = fake.requests.length;
    const r = await summarize(s, key, { videoId, lang: 'en' });
    expect(r.status).toBe(402);
    expect(r.json.error.message).toMatch(/costs 3 credits/);
    expect(fake.requests.length).toBe(before);
  });

  it('400 for a bad language, length or a missing video', async () => {
    const { key } = await s.newKey({ credits: 5 });
    for (const body of [
      { videoId: 'AAAAAAAAAAA', lang: 'english please' },
      { videoId: 'AAAAAAAAAAA', lang: 'en', length: 'huge' },
      { lang: 'en' },
      { videoId: 'AAAAAAAAAAA' },
    ]) {
      const r = await summarize(s, key, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error.code).toBe('INVALID_REQUEST');
    }
  });

  it('works over MCP', async () => {
    const { videoId } = await seedVideo(s.deps.sql, { duration: 200 });
    const { key } = await s.newKey({ credits: 1 });
    const client = await mcpClient(s.url, key);
    const tool = (await client.listTools()).tools.find((t) => t.name === 'summarize_video')!;
    expect(tool.description).toContain('get_job');
    const result: any = await client.callTool({ name: 'summarize_video', arguments: { videoId, lang: 'en' } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.article.generator.kind).toBe('llm');
    expectSectionsWithin(result.structuredContent.article, 200);
    await client.close();
  });
});

describe('without an LLM (extractive)', () => {
  it('runs end to end with no API key: extractive article in the transcript’s language, charged, stored, free on repeat', async () => {
    const { videoId } = await seedVideo(bare.deps.sql, {
      duration: 900,
      title: 'Baking bread at home',
      segments: spreadSegments(
        900,
        150,
        (k) =>
          [
            'Knead the dough with flour and water.',
            'Bake the bread in a hot oven until golden.',
            'Let the kitchen smell of fresh bread.',
          ][k % 3]!,
      ),
    });
    const { key, accountId } = await bare.newKey({ credits: 1 });
    const r = await summarize(bare, key, { videoId, lang: 'fr' });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      status: 'succeeded',
      creditsCharged: 1,
      article: { generator: { kind: 'extractive' }, lang: 'en', sourceLang: 'en', title: 'Baking bread at home' },
    });
    expectSectionsWithin(r.json.article, 900);
    const again = await summarize(bare, key, { videoId, lang: 'fr' });
    expect(again.json).toMatchObject({ cached: true, creditsCharged: 0, article: { id: r.json.article.id } });
    expect(await charges(bare, accountId)).toEqual([{ delta: -1, operation: 'summary' }]);
    const hits = await rest(bare.url, 'GET', '/articles', { key, query: { query: 'bread oven' } });
    expect(hits.json.results[0].id).toBe(r.json.article.id);
  });

  it('extracts and summarizes a video never fetched before', async () => {
    const { key } = await bare.newKey({ credits: 3 });
    const r = await summarize(bare, key, { videoId: freshVideoId(), lang: 'en', length: 'long' });
    expect(r.status).toBe(200);
    expect(r.json.creditsCharged).toBe(3);
    expect(r.json.article.generator.kind).toBe('extractive');
  });
});
