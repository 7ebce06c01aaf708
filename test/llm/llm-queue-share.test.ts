// The language-model queue's waiting places are shared as the extraction queue's are: one account holds at most half
// of them (QUEUE_MAX_WAITING_PER_ACCOUNT), a request that cannot pay never takes one, and a refusal names the work it
// refuses. Found by a review of 605af9c: with QUEUE_MAX_WAITING=3, a 1-credit account asking 10 translations at once
// made a 100-credit account's translation answer 503 "Extraction capacity is saturated".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../support/clients.ts';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { modelReply, seedVideo, spreadSegments } from './llm-fixtures.ts';

let fake: FakeAnthropic;
let s: TestServer;
let open!: () => void;
beforeAll(async () => {
  // The model answers only once the test is done: every translation stays queued or running meanwhile.
  const gate = new Promise<void>((r) => (open = r));
  fake = await startFakeAnthropic(async (req) => {
    await gate;
    return modelReply(req);
  });
  s = await startTestServer({
    ANTHROPIC_API_KEY: 'test',
    ANTHROPIC_BASE_URL: fake.url,
    QUEUE_MAX_WAITING: '3',
    LLM_CONCURRENCY: '1',
    REQUEST_WAIT_MS: '200',
  });
});
afterAll(async () => {
  open?.();
  await s?.close();
  await fake?.close();
});

const videos = (n: number) =>
  Promise.all(
    Array.from({ length: n }, () => seedVideo(s.deps.sql, { duration: 120, segments: spreadSegments(120, 6) })),
  );
const translate = (key: string, videoId: string) =>
  rest(s.url, 'POST', '/transcripts/translate', { key, body: { videoId, sourceLang: 'en', targetLang: 'fr' } });
const statuses = (answers: { status: number }[]) => answers.map((a) => a.status).sort();

describe('the language-model queue under one account’s burst', () => {
  it('a 1-credit account asking 10 translations takes one place; a 100-credit account still gets in', async () => {
    const poor = await s.newKey({ credits: 1, rateLimit: 100_000 });
    const burst = await Promise.all((await videos(10)).map(({ videoId }) => translate(poor.key, videoId)));
    expect(statuses(burst)).toEqual([202, ...Array(9).fill(402)]);

    const rich = await s.newKey({ credits: 100 });
    const videoId = (await videos(1))[0]!.videoId;
    const r = await translate(rich.key, videoId);
    expect(r.json.error?.code ?? null).not.toBe('SERVICE_BUSY');
    expect(r.status).toBe(202);
  });

  it('an account that can pay holds at most half the waiting places (429), and a full queue names its work', async () => {
    const greedy = await s.newKey({ credits: 100, rateLimit: 100_000 });
    // One after the other: the share is counted when each asks (concurrent asks can race the count).
    const burst = [];
    for (const { videoId } of await videos(6)) burst.push(await translate(greedy.key, videoId));
    // At most its share (2 of 3) waits; the rest are refused, by its share (429) or a full queue (503).
    const refused = burst.filter((a) => a.status !== 202);
    expect(burst.length - refused.length).toBeLessThanOrEqual(2);
    for (const a of refused) expect(['RATE_LIMITED', 'SERVICE_BUSY']).toContain(a.json.error.code);
    // No credits stay held for the refused ones.
    const [row] = await s.deps.sql<{ held: number }[]>`
      select count(*)::int as held from credit_holds where account_id = ${greedy.accountId} and status = 'held'`;
    expect(row!.held).toBe(burst.length - refused.length);

    // Other accounts fill what is left; then the queue is saturated, and says it of language-model work.
    const answers = [];
    for (const { videoId } of await videos(4))
      answers.push(await translate((await s.newKey({ credits: 5 })).key, videoId));
    const busy = answers.find((a) => a.status === 503);
    expect(busy?.json.error).toMatchObject({ code: 'SERVICE_BUSY' });
    expect(busy?.json.error.message).toMatch(/^Language-model work \(translations, articles\) capacity is saturated/);
  });
});
