// Pay before work on two instances of one database: holds are in PostgreSQL, so requests for paid model work sent to
// either instance at once share one balance; the model is called only for the work that was paid.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../support/clients.ts';
import { createTestDatabase } from '../support/databases.ts';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { modelReply, seedVideo, spreadSegments } from '../llm/llm-fixtures.ts';

let fake: FakeAnthropic;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let s1: TestServer;
let s2: TestServer;
beforeAll(async () => {
  fake = await startFakeAnthropic(modelReply);
  db = await createTestDatabase();
  const env = { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: fake.url };
  const shared = { database: { url: db.url, drop: async () => {} } };
  s1 = await startTestServer(env, {}, shared);
  s2 = await startTestServer(env, {}, shared);
});
afterAll(async () => {
  await s1?.close();
  await s2?.close();
  await db?.drop();
  await fake?.close();
});

describe('paid model work on two instances', { timeout: 90_000 }, () => {
  it('8 translations and articles at once split over two instances with 1 credit: one done, the model called once', async () => {
    const videos = await Promise.all(
      Array.from({ length: 8 }, () => seedVideo(s1.deps.sql, { duration: 120, segments: spreadSegments(120, 6) })),
    );
    const { key, accountId } = await s1.newKey({ credits: 1 });
    const before = fake.requests.length;
    const answers = await Promise.all(
      videos.map(({ videoId }, i) => {
        const url = (i % 2 ? s2 : s1).url;
        return i % 4 < 2
          ? rest(url, 'POST', '/transcripts/translate', { key, body: { videoId, sourceLang: 'en', targetLang: 'fr' } })
          : rest(url, 'POST', '/summaries', { key, body: { videoId, lang: 'en' } });
      }),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 402, 402, 402, 402, 402, 402, 402]);
    expect(fake.requests.length - before).toBe(1);
    const [row] = await s1.deps.sql<{ purchased_balance: number; held_credits: number }[]>`
      select purchased_balance, held_credits from accounts where id = ${accountId}`;
    expect(row).toEqual({ purchased_balance: 0, held_credits: 0 });
  });
});
