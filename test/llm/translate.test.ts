// POST /api/v1/transcripts/translate and MCP translate_transcript against the real server, with a loopback
// Anthropic API; transcripts are seeded in the test database, so no YouTube is involved.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mcpClient, mcpError, rest } from '../support/clients.ts';
import { startFakeAnthropic, userText, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { translationKey } from '../../src/domain/translations/request-translation.ts';
import { runTranslationJob } from '../../src/domain/translations/translation-job.ts';
import { heldJobs } from '../support/held-jobs.ts';
import { isTranslation, modelReply, seedVideo, spreadSegments } from './llm-fixtures.ts';
import { getCredits } from '../support/stores.ts';
import { reserveCredits } from '../../src/domain/credits/holds.ts';

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
beforeEach(() => {
  fake.setHandler(modelReply);
});

const translate = (key: string, body: unknown) => rest(s.url, 'POST', '/transcripts/translate', { key, body });
const charges = (accountId: string) =>
  s.deps.sql<
    { delta: number; operation: string }[]
  >`select delta, operation from credit_ledger where account_id = ${accountId} and kind = 'charge'`;

describe('happy', () => {
  it('keeps segment count and timestamps, stores the translation as a transcript, charges 1 credit per hour', async () => {
    const { videoId, segments } = await seedVideo(s.deps.sql, { duration: 600 });
    const { key, accountId } = await s.newKey({ credits: 5 });
    const r = await translate(key, { videoId, sourceLang: 'en', targetLang: 'fr' });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      status: 'succeeded',
      cached: false,
      creditsCharged: 1,
      job: { status: 'succeeded', progress: 1, creditsCharged: 1, kind: 'translation' },
    });
    expect(r.json.job.id).toMatch(/^job_/);
    const t = r.json.translation;
    expect(t).toMatchObject({ videoId, sourceLang: 'en', targetLang: 'fr', segmentCount: segments.length });
    expect(t.segments).toEqual(segments.map((x) => ({ start: x.start, end: x.end, text: `FR ${x.text}` })));
    expect(await charges(accountId)).toEqual([{ delta: -1, operation: 'translation' }]);

    // Usable as the video's French transcript.
    const sub = await rest(s.url, 'POST', '/subtitles', { key, body: { videoId, lang: 'fr' } });
    expect(sub.status).toBe(200);
    expect(sub.json).toMatchObject({
      source: 'translation',
      lang: 'fr',
      segmentCount: segments.length,
      creditsCharged: 0,
    });

    // Token usage per job.
    const usage = await s.deps.sql`select * from llm_usage where task_id = ${r.json.job.id}`;
    expect(usage).toHaveLength(1);
    expect(usage[0]!.operation).toBe('translation');
    expect(usage[0]!.input_tokens).toBeGreaterThan(0);
  });

  it('translates ~3,000 segments keeping every one in place', async () => {
    const segs = spreadSegments(3 * 3600 - 60, 3000, (k) => `cue ${k} words here`);
    const { videoId } = await seedVideo(s.deps.sql, { duration: 3 * 3600 - 60, segments: segs });
    const { key } = await s.newKey({ credits: 3 });
    const before = fake.requests.length;
    const r = await translate(key, { videoId, sourceLang: 'en', targetLang: 'de' });
    expect(r.status).toBe(200);
    expect(r.json.creditsCharged).toBe(3);
    expect(r.json.translation.segmentCount).toBe(3000);
    r.json.translation.segments.forEach((x: { start: number; end: number; text: string }, k: number) => {
      expect(x).toEqual({ start: segs[k]!.start, end: segs[k]!.end, text: `FR ${segs[k]!.text}` });
    });
    expect(fake.requests.length - before).toBeGreaterThan(10); // chunked
  });

  it('re-asks a chunk whose answer did not line up', async () => {
    const { videoId, segments } = await seedVideo(s.deps.sql, { duration: 120, segments: spreadSegments(120, 6) });
    const { key } = await s.newKey({ credits: 1 });
    const before = fake.requests.length;
    fake.enqueue({
      json: {
        translations: [
          { i: 1, text: 'FR merged 1+2' },
          { i: 3, text: 'x' },
        ],
      },
    });
    const r = await translate(key, { videoId, sourceLang: 'en', targetLang: 'es' });
    expect(r.status).toBe(200);
    const asked = fake.requests.slice(before);
    expect(asked).toHaveLength(2);
    expect(userText(asked[1]!.body)).toContain('did not line up');
    expect(r.json.translation.segments.map((x: { text: string }) => x.text)).toEqual(
      segments.map((x) => `FR ${x.text}`),
    );
  });

  it('a repeat is free and instant, also from another account and for en -> FR spelled differently', async () => {
    const { videoId } = await seedVideo(s.deps.sql, { duration: 300 });
    const a = await s.newKey({ credits: 1 });
    expect((await translate(a.key, { videoId, sourceLang: 'en', targetLang: 'pt-BR' })).json.creditsCharged).toBe(1);
    const before = fake.requests.length;
    const b = await s.newKey();
    const r = await translate(b.key, { videoId, sourceLang: 'EN', targetLang: 'pt-br' });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      status: 'succeeded',
      cached: true,
      creditsCharged: 0,
      translation: { targetLang: 'pt-BR' },
    });
    expect(fake.requests.length).toBe(before);
    expect(await charges(b.accountId)).toEqual([]);
  });

  it('prices 1 credit per started hour of the video: 59 min -> 1, 61 min -> 2, 3 h -> 3', async () => {
    for (const [minutes, price] of [
      [59, 1],
      [61, 2],
      [180, 3],
      [1, 1],
    ] as const) {
      const { videoId } = await seedVideo(s.deps.sql, {
        duration: minutes * 60,
        segments: spreadSegments(minutes * 60, 10),
      });
      const { key, accountId } = await s.newKey({ credits: price });
      const r = await translate(key, { videoId, sourceLang: 'en', targetLang: 'it' });
      expect(r.status, `${minutes} min`).toBe(200);
      expect(r.json.creditsCharged, `${minutes} min`).toBe(price);
      expect((await getCredits(s.deps.sql, accountId, 0)).balance).toBe(0);
    }
  });

  it('works over MCP through the same procedure', async () => {
    const { videoId, segments } = await seedVideo(s.deps.sql, { duration: 90, segments: spreadSegments(90, 5) });
    const { key } = await s.newKey({ credits: 1 });
    const client = await mcpClient(s.url, key);
    const tool = (await client.listTools()).tools.find((t) => t.name === 'translate_transcript')!;
    expect(tool.description).toContain('get_job');
    const result: any = await client.callTool({
      name: 'translate_transcript',
      arguments: { videoId, sourceLang: 'en', targetLang: 'ja' },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.translation.segments).toHaveLength(segments.length);
    expect(result.content[0].text).toMatch(/5 segments translated en -> ja; 1 credit charged/);
    const missing: any = await client.callTool({
      name: 'translate_transcript',
      arguments: { videoId: 'AAAAAAAAAAA', sourceLang: 'en', targetLang: 'ja' },
    });
    expect(mcpError(missing)?.code).toBe('TRANSCRIPT_NOT_FOUND');
    await client.close();
  });
});

describe('errors', () => {
  it('404 TRANSCRIPT_NOT_FOUND without a stored transcript, telling to fetch subtitles first', async () => {
    const { videoId } = await seedVideo(s.deps.sql, { duration: 60, storeTranscript: false });
    const { key } = await s.newKey({ credits: 5 });
    const r = await translate(key, { videoId, sourceLang: 'en', targetLang: 'fr' });
    expect(r.status).toBe(404);
    expect(r.json.error.code).toBe('TRANSCRIPT_NOT_FOUND');
    expect(r.json.error.message).toMatch(/subtitles first/);
    const other = await seedVideo(s.deps.sql, { duration: 60 });
    const r2 = await translate(key, { videoId: other.videoId, sourceLang: 'de', targetLang: 'fr' });
    expect(r2.json.error.code).toBe('TRANSCRIPT_NOT_FOUND');
  });

  it('400 INVALID_REQUEST for the same language, a malformed code, a bad video id or a missing field', async () => {
    const { videoId } = await seedVideo(s.deps.sql, { duration: 60 });
    const { key } = await s.newKey({ credits: 5 });
    for (const body of [
      { videoId, sourceLang: 'en', targetLang: 'en' },
      { videoId, sourceLang: 'en', targetLang: 'EN' },
      { videoId, sourceLang: 'en', targetLang: 'french!' },
      { videoId, sourceLang: 'en', targetLang: 'x' },
      { videoId: 'not an id', sourceLang: 'en', targetLang: 'fr' },
      { videoId, sourceLang: 'en' },
      { sourceLang: 'en', targetLang: 'fr' },
    ]) {
      const r = await translate(key, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error.code).toBe('INVALID_REQUEST');
    }
  });

  it('402 up front when unaffordable: no model call, no charge', async () => {
    const { videoId } = await seedVideo(s.deps.sql, { duration: 2 * 3600, segments: spreadSegments(7200, 10) });
    const { key, accountId } = await s.newKey({ credits: 1 });
    const before = fake.requests.length;
    const r = await translate(key, { videoId, sourceLang: 'en', targetLang: 'fr' });
    expect(r.status).toBe(402);
    expect(r.json.error.code).toBe('INSUFFICIENT_CREDITS');
    expect(r.json.error.message).toMatch(/costs 2 credits/);
    expect(fake.requests.length).toBe(before);
    expect(await charges(accountId)).toEqual([]);
  });

  it('a chunk that never lines up fails with 502 LLM_FAILED and charges nothing', async () => {
    const { videoId } = await seedVideo(s.deps.sql, { duration: 60, segments: spreadSegments(60, 4) });
    const { key, accountId } = await s.newKey({ credits: 5 });
    fake.setHandler((req) =>
      isTranslation(req) ? { json: { translations: [{ i: 1, text: 'only one' }] } } : modelReply(req),
    );
    const r = await translate(key, { videoId, sourceLang: 'en', targetLang: 'fr' });
    expect(r.status).toBe(502);
    expect(r.json.error.code).toBe('LLM_FAILED');
    expect(await charges(accountId)).toEqual([]);
    const [row] = await s.deps.sql`select count(*)::int as n from translations where video_id = ${videoId}`;
    expect(row!.n).toBe(0);
  });
});

// A translation finished by two runs of its job at once (a pg-boss retry after a missed heartbeat, the first run
// still alive) is charged once: the translation is stored by an upsert, so only the payer's task settling in the
// charge's own transaction tells the second run that the result was already paid for. Both runs are driven through
// the domain function, each holding until both have read the waiting tasks.
describe('a translation finished twice', () => {
  it('two runs of one job: one charge, the task succeeded with it, the other run stores and charges nothing', async () => {
    const { accountId } = await s.newKey({ credits: 20 });
    const { videoId } = await seedVideo(s.deps.sql, { duration: 600 });
    const key = translationKey(videoId, 'en', 'eo');
    const task = await s.deps.jobs.create({
      accountId,
      kind: 'translation',
      input: { videoId, sourceLang: 'en', targetLang: 'eo', resolvedSourceLang: 'en' },
      requestId: `req_tr_${accountId}`,
      jobKey: key,
    });
    // Its request held the credit before enqueuing, as every request does.
    const hold = { accountId, amount: 1, operation: 'translation', requestId: task.requestId, jobId: task.id };
    await reserveCredits(s.deps, { ...hold, videoId, job: { queue: 'llm', key } }, 0);
    const job = {
      kind: 'translation' as const,
      key,
      jobId: task.id,
      videoId,
      price: 1,
      sourceLang: 'en',
      targetLang: 'eo',
    };
    const deps = { ...s.deps, jobs: heldJobs(s.deps.jobs, 2) };

    const runs = await Promise.allSettled([runTranslationJob(deps, job), runTranslationJob(deps, job)]);
    expect(runs.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const failed = runs.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    // The loser either finds the stored translation written first (LLM_FAILED) or, when the winner has already
    // settled, no hold left to spend (INSUFFICIENT_CREDITS): either way it stores and charges nothing.
    expect(['LLM_FAILED', 'INSUFFICIENT_CREDITS']).toContain(failed.reason.code);

    const charges = await s.deps.sql<{ delta: number; operation: string }[]>`
      select delta, operation from credit_ledger where account_id = ${accountId} and kind = 'charge'`;
    expect(charges).toEqual([{ delta: -1, operation: 'translation' }]);
    const [row] = await s.deps.sql<
      { status: string; credits_charged: number }[]
    >`select status, credits_charged from tasks where id = ${task.id}`;
    expect(row).toEqual({ status: 'succeeded', credits_charged: 1 });
    expect(await s.deps.translations.read(videoId, 'en', 'eo')).not.toBeNull();
  });
});
