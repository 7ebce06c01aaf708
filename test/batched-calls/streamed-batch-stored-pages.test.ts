// Review attack on batched calls (a354838), a mixed batch of stored pages: tRPC's streamed batches
// (httpBatchStreamLink, `trpc-accept: application/jsonl`) are written call by call as each ends, and the output step
// that writes a stored transcript's segments into the answer (src/bridges/stored-output.ts) never saw them, so each
// stored page answered `segments: "\u0000stored part"`, the placeholder, instead of the segments.
import { createTRPCClient, httpBatchStreamLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Segment } from '../../src/domain/video/schemas.ts';
import type { AppRouter } from '../../src/router/index.ts';
import { fakeVideoSource } from '../support/fake-video-source.ts';
import { storeManualTranscript } from '../support/stores.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const STORED = 'StoredPage2';
const segments: Segment[] = [
  { start: 0, end: 1, text: 'hello' },
  { start: 1, end: 2, text: 'world' },
];

let s: TestServer;
let key: string;
beforeAll(async () => {
  s = await startTestServer({}, { youtube: fakeVideoSource() });
  await storeManualTranscript(s.deps.sql, STORED, segments);
  key = (await s.newKey()).key;
});
afterAll(async () => s?.close());

describe('a streamed tRPC batch of stored transcript pages', () => {
  it('answers each page with its segments', async () => {
    const client = createTRPCClient<AppRouter>({
      links: [httpBatchStreamLink({ url: `${s.url}/trpc`, headers: () => ({ authorization: `Bearer ${key}` }) })],
    });
    const [whole, rest, info] = await Promise.all([
      client.subtitles.get.mutate({ videoId: STORED }),
      client.subtitles.get.mutate({ videoId: STORED, offset: 1 }),
      client.subtitles.get.mutate({ videoId: STORED, words: false, limit: 1 }),
    ]);
    expect(whole.status === 'succeeded' && whole.segments).toEqual(segments);
    expect(rest.status === 'succeeded' && rest.segments).toEqual(segments.slice(1));
    expect(info.status === 'succeeded' && info.segments).toEqual(segments.slice(0, 1));
  });
});
