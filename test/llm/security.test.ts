// The shared auth, rate-limit and credit checks (test/support/security-checks.ts) for translation, summaries,
// article search and jobs, on REST, tRPC and MCP.
import { afterAll, beforeAll } from 'vitest';
import { fakeVideoSource, freshVideoId } from '../support/fake-video-source.ts';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { describeKeyedProcedureChecks } from '../support/security-checks.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { modelReply, seedVideo, spreadSegments } from './llm-fixtures.ts';

let fake: FakeAnthropic;
let s: TestServer;
/** Videos with a stored transcript and no translation yet: each translate call takes a fresh one (a repeat is free). */
const untranslated: string[] = [];
beforeAll(async () => {
  fake = await startFakeAnthropic(modelReply);
  s = await startTestServer(
    { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: fake.url },
    { youtube: fakeVideoSource() },
  );
  for (let k = 0; k < 150; k++)
    untranslated.push((await seedVideo(s.deps.sql, { duration: 60, segments: spreadSegments(60, 2) })).videoId);
});
afterAll(async () => {
  await s?.close();
  await fake?.close();
});
const server = () => s;

describeKeyedProcedureChecks('transcripts.translate', server, {
  input: () => ({ videoId: untranslated.pop(), sourceLang: 'en', targetLang: 'fr' }),
  price: 1,
});
// A video never fetched: 2 credits to extract the transcript + 1 for the article, checked before any work.
describeKeyedProcedureChecks('summaries.create', server, {
  input: () => ({ videoId: freshVideoId(), lang: 'en' }),
  price: 3,
});
describeKeyedProcedureChecks('articles.search', server, { input: { query: 'anything' } });
describeKeyedProcedureChecks('articles.get', server, {
  input: { id: 'art_missing' },
  authed: { status: 404, code: 'ARTICLE_NOT_FOUND' },
});
describeKeyedProcedureChecks('jobs.get', server, {
  input: { id: 'job_missing' },
  authed: { status: 404, code: 'JOB_NOT_FOUND' },
});
