// The service with a loopback Anthropic API answering every model call (modelReply), for the files that exercise
// paid model work against seeded transcripts. Started before the file's tests and stopped after.
import { afterAll, beforeAll } from 'vitest';
import { modelReply, seedVideo, spreadSegments } from '../llm/llm-fixtures.ts';
import { startFakeAnthropic, type FakeAnthropic } from './fake-anthropic.ts';
import { startTestServer, type TestServer } from './test-server.ts';

export interface ModelService {
  s: TestServer;
  fake: FakeAnthropic;
  /** `n` videos, each with a short stored English transcript (one model call translates or summarizes it). */
  shortVideos(n: number): ReturnType<typeof seededVideos>;
}

const seededVideos = (s: TestServer, n: number) =>
  Promise.all(
    Array.from({ length: n }, () => seedVideo(s.deps.sql, { duration: 120, segments: spreadSegments(120, 6) })),
  );

export function useModelService(): ModelService {
  const h = { shortVideos: (n: number) => seededVideos(h.s, n) } as unknown as ModelService;
  beforeAll(async () => {
    h.fake = await startFakeAnthropic(modelReply);
    h.s = await startTestServer({ ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: h.fake.url });
  });
  afterAll(async () => {
    await h.s?.close();
    await h.fake?.close();
  });
  return h;
}
