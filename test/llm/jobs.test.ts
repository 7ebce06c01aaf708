// Long work answers 202 with a job once REQUEST_WAIT_MS runs out; GET /api/v1/jobs/{id} (MCP get_job) follows it.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mcpClient, mcpError, rest } from '../support/clients.ts';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { isTranslation, modelReply, seedVideo, spreadSegments } from './llm-fixtures.ts';

let fake: FakeAnthropic;
let s: TestServer;
let delayMs = 0;
beforeAll(async () => {
  fake = await startFakeAnthropic((req) => ({ delayMs, reply: modelReply(req) }));
  s = await startTestServer({ ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: fake.url, REQUEST_WAIT_MS: '300' });
});
afterAll(async () => {
  await s?.close();
  await fake?.close();
});
beforeEach(() => {
  delayMs = 0;
  fake.setHandler((req) => ({ delayMs, reply: modelReply(req) }));
});

/** Polls every 100 ms until the job leaves queued/running; records each progress seen. */
async function pollJob(key: string, id: string, timeoutMs = 20_000) {
  const seen: number[] = [];
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await rest(s.url, 'GET', `/jobs/${id}`, { key });
    expect(r.status).toBe(200);
    seen.push(r.json.progress);
    if (r.json.status === 'succeeded' || r.json.status === 'failed') return { job: r.json, seen };
    if (Date.now() > until) throw new Error(`job ${id} still ${r.json.status}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

describe('202 and polling', () => {
  it('translation: 202 with a job, progress rises, then the result; charged once, on success', async () => {
    delayMs = 250;
    const segs = spreadSegments(1800, 2000, (k) => `cue ${k}`); // 17 chunks, 4 at a time: about 1.3 s
    const { videoId } = await seedVideo(s.deps.sql, { duration: 1800, segments: segs });
    const { key, accountId } = await s.newKey({ credits: 1 });
    const r = await rest(s.url, 'POST', '/transcripts/translate', {
      key,
      body: { videoId, sourceLang: 'en', targetLang: 'fr' },
    });
    expect(r.status).toBe(202);
    expect(r.json).toMatchObject({
      status: expect.stringMatching(/^(queued|running)$/),
      cached: false,
      creditsCharged: 0,
    });
    expect(r.json.translation).toBeUndefined();
    expect(r.json.job).toMatchObject({ id: expect.stringMatching(/^job_/), kind: 'translation', creditsCharged: 0 });

    const { job, seen } = await pollJob(key, r.json.job.id);
    expect(job).toMatchObject({ status: 'succeeded', progress: 1, creditsCharged: 1 });
    expect(job.result.translation.segments).toHaveLength(2000);
    expect(job.result.translation.segments[1999]).toEqual({ ...segs[1999], text: `FR ${segs[1999]!.text}` });
    expect(seen.some((p) => p > 0 && p < 1)).toBe(true);
    for (let k = 1; k < seen.length; k++) expect(seen[k]).toBeGreaterThanOrEqual(seen[k - 1]!);
    const charged = await s.deps
      .sql`select delta from credit_ledger where account_id = ${accountId} and kind = 'charge'`;
    expect(charged).toEqual([{ delta: -1 }]);

    // Done now: the same request answers 200 from storage.
    const again = await rest(s.url, 'POST', '/transcripts/translate', {
      key,
      body: { videoId, sourceLang: 'en', targetLang: 'fr' },
    });
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ status: 'succeeded', cached: true, creditsCharged: 0 });
  });

  it('summary: 202, then get_job over MCP gives the article', async () => {
    delayMs = 700;
    const { videoId } = await seedVideo(s.deps.sql, { duration: 300 });
    const { key } = await s.newKey({ credits: 1 });
    const client = await mcpClient(s.url, key);
    const first: any = await client.callTool({ name: 'summarize_video', arguments: { videoId, lang: 'en' } });
    expect(first.isError).toBeFalsy();
    expect(first.structuredContent.status).toMatch(/^(queued|running)$/);
    const id = first.structuredContent.job.id;
    expect(first.content[0].text).toContain(`get_job with id "${id}"`);
    let result: any;
    for (const until = Date.now() + 20_000; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
      result = await client.callTool({ name: 'get_job', arguments: { id } });
      expect(result.isError).toBeFalsy();
      if (result.structuredContent.status === 'succeeded') break;
    }
    expect(result.structuredContent).toMatchObject({
      status: 'succeeded',
      creditsCharged: 1,
      result: { article: { videoId, generator: { kind: 'llm' } } },
    });
    // The text is the article in markdown, after the job's status line.
    expect(result.content[0].text).toMatch(
      new RegExp(`^Job ${id} \\(summary\\) succeeded; 1 credit charged\\.\n\n# .+\n`),
    );
    expect(result.content[0].text).toContain(`## ${result.structuredContent.result.article.sections[0].heading} (`);
    await client.close();
  });

  it('two accounts asking at once share one job; the starter pays, the other gets it free', async () => {
    delayMs = 1_000;
    const { videoId } = await seedVideo(s.deps.sql, { duration: 60, segments: spreadSegments(60, 4) });
    const a = await s.newKey({ credits: 1 });
    const b = await s.newKey({ credits: 1 });
    const before = fake.requests.length;
    const ra = await rest(s.url, 'POST', '/transcripts/translate', {
      key: a.key,
      body: { videoId, sourceLang: 'en', targetLang: 'sv' },
    });
    expect(ra.status).toBe(202);
    const rb = await rest(s.url, 'POST', '/transcripts/translate', {
      key: b.key,
      body: { videoId, sourceLang: 'en', targetLang: 'sv' },
    });
    expect([ra.status, rb.status]).toEqual([202, 202]);
    const [ja, jb] = await Promise.all([pollJob(a.key, ra.json.job.id), pollJob(b.key, rb.json.job.id)]);
    expect(ja.job).toMatchObject({ status: 'succeeded', creditsCharged: 1 });
    expect(jb.job).toMatchObject({ status: 'succeeded', creditsCharged: 0 });
    expect(jb.job.result.translation.segments).toHaveLength(4);
    expect(fake.requests.slice(before).filter((q) => isTranslation(q.body))).toHaveLength(1);
  });

  it('a failed job is reported as failed with the error, nothing charged', async () => {
    delayMs = 400;
    const { videoId } = await seedVideo(s.deps.sql, { duration: 60, segments: spreadSegments(60, 4) });
    fake.setHandler((req) => ({
      delayMs,
      reply: isTranslation(req) ? { json: { translations: [] } } : modelReply(req),
    }));
    const { key, accountId } = await s.newKey({ credits: 1 });
    const r = await rest(s.url, 'POST', '/transcripts/translate', {
      key,
      body: { videoId, sourceLang: 'en', targetLang: 'nl' },
    });
    expect(r.status).toBe(202);
    const { job } = await pollJob(key, r.json.job.id);
    expect(job).toMatchObject({ status: 'failed', creditsCharged: 0, error: { code: 'LLM_FAILED' } });
    expect(job.result).toBeUndefined();
    expect(
      await s.deps.sql`select 1 from credit_ledger where account_id = ${accountId} and kind = 'charge'`,
    ).toHaveLength(0);
  });
});

describe('job visibility', () => {
  it('only the owner sees a job: JOB_NOT_FOUND for another account and for unknown ids', async () => {
    const { videoId } = await seedVideo(s.deps.sql, { duration: 60, segments: spreadSegments(60, 3) });
    const owner = await s.newKey({ credits: 1 });
    const r = await rest(s.url, 'POST', '/transcripts/translate', {
      key: owner.key,
      body: { videoId, sourceLang: 'en', targetLang: 'fi' },
    });
    const id = r.json.job.id;
    expect((await rest(s.url, 'GET', `/jobs/${id}`, { key: owner.key })).status).toBe(200);
    const other = await s.newKey();
    for (const probe of [id, 'job_nope', "job_' or 1=1 --"]) {
      const res = await rest(s.url, 'GET', `/jobs/${encodeURIComponent(probe)}`, { key: other.key });
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ error: { code: 'JOB_NOT_FOUND', message: expect.any(String) } });
    }
    const client = await mcpClient(s.url, other.key);
    expect(mcpError(await client.callTool({ name: 'get_job', arguments: { id } }))?.code).toBe('JOB_NOT_FOUND');
    await client.close();
  });
});
