// What happens when the model keeps failing, and on a server without one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropicLlm } from '../../src/infra/llm/anthropic-llm.ts';
import { mcpClient, mcpError, rest } from '../support/clients.ts';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { seedVideo, spreadSegments } from './llm-fixtures.ts';

let fake: FakeAnthropic;
let s: TestServer;
let bare: TestServer;
beforeAll(async () => {
  fake = await startFakeAnthropic(() => ({ status: 500 }));
  // The configured adapter, with retries shortened so exhausting them takes milliseconds.
  const llm = createAnthropicLlm({
    apiKey: 'test',
    baseURL: fake.url,
    model: 'claude-test',
    timeoutMs: 5_000,
    maxRetries: 2,
    retryBaseMs: 5,
  });
  [s, bare] = await Promise.all([startTestServer({}, { llm }), startTestServer({})]);
});
afterAll(async () => {
  await Promise.all([s?.close(), bare?.close()]);
  await fake?.close();
});

const ledger = (t: TestServer, accountId: string) =>
  t.deps.sql`select kind, delta from credit_ledger where account_id = ${accountId} and kind <> 'grant'`;

describe('model failures', () => {
  it('translation: LLM 500s after every retry -> 502 LLM_FAILED, nothing charged or stored, the job records the failure', async () => {
    const { videoId } = await seedVideo(s.deps.sql, { duration: 60, segments: spreadSegments(60, 5) });
    const { key, accountId } = await s.newKey({ credits: 5 });
    const before = fake.requests.length;
    const r = await rest(s.url, 'POST', '/transcripts/translate', {
      key,
      body: { videoId, sourceLang: 'en', targetLang: 'fr' },
    });
    expect(r.status).toBe(502);
    expect(r.json).toEqual({ error: { code: 'LLM_FAILED', message: expect.stringMatching(/3 attempts.*HTTP 500/) } });
    expect(fake.requests.length - before).toBe(3); // first try + 2 retries; pg-boss does not re-run the whole job
    expect(await ledger(s, accountId)).toEqual([]);
    expect(await s.deps.sql`select 1 from translations where video_id = ${videoId}`).toHaveLength(0);
    expect(
      await s.deps.sql`select 1 from transcripts where video_id = ${videoId} and origin = 'translation'`,
    ).toHaveLength(0);
    const [task] = await s.deps.sql<{ status: string; error: { code: string }; credits_charged: number }[]>`
      select status, error, credits_charged from tasks where account_id = ${accountId}`;
    expect(task).toMatchObject({ status: 'failed', error: { code: 'LLM_FAILED' }, credits_charged: 0 });
  });

  it('summary: LLM 500s -> 502 LLM_FAILED, nothing charged or stored', async () => {
    const { videoId } = await seedVideo(s.deps.sql, { duration: 120 });
    const { key, accountId } = await s.newKey({ credits: 5 });
    const r = await rest(s.url, 'POST', '/summaries', { key, body: { videoId, lang: 'en' } });
    expect(r.status).toBe(502);
    expect(r.json.error.code).toBe('LLM_FAILED');
    expect(await ledger(s, accountId)).toEqual([]);
    expect(await s.deps.sql`select 1 from articles where video_id = ${videoId}`).toHaveLength(0);
  });
});

describe('no LLM configured', () => {
  it('translation answers 501 LLM_NOT_CONFIGURED on REST and MCP, charging nothing', async () => {
    const { videoId } = await seedVideo(bare.deps.sql, { duration: 60 });
    const { key, accountId } = await bare.newKey({ credits: 5 });
    const r = await rest(bare.url, 'POST', '/transcripts/translate', {
      key,
      body: { videoId, sourceLang: 'en', targetLang: 'fr' },
    });
    expect(r.status).toBe(501);
    expect(r.json.error.code).toBe('LLM_NOT_CONFIGURED');
    const client = await mcpClient(bare.url, key);
    const m = await client.callTool({
      name: 'translate_transcript',
      arguments: { videoId, sourceLang: 'en', targetLang: 'fr' },
    });
    expect(mcpError(m)?.code).toBe('LLM_NOT_CONFIGURED');
    await client.close();
    expect(await ledger(bare, accountId)).toEqual([]);
  });

  it('501 is documented in the OpenAPI document', async () => {
    const doc = await (await fetch(`${bare.url}/api/v1/openapi.json`)).json();
    const op = doc.paths['/transcripts/translate'].post;
    expect(op.responses['501'].description).toContain('LLM_NOT_CONFIGURED');
    expect(op.description).toMatch(/202/);
    expect(doc.paths['/summaries'].post).toBeTruthy();
    expect(doc.paths['/articles'].get).toBeTruthy();
    expect(doc.paths['/articles/{id}'].get).toBeTruthy();
    expect(doc.paths['/jobs/{id}'].get.responses['404'].description).toContain('JOB_NOT_FOUND');
  });
});
