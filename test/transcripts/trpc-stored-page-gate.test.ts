// tRPC's stored-page fast path (src/bridges/trpc-http.ts) takes only the calls tRPC itself would answer as one JSON
// document: a Content-Type whose media type is application/json (tRPC refuses `application/jsonx` with 415), and no
// streaming asked for in `accept` (tRPC answers `accept: application/jsonl` on a single call with 400).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Segment } from '../../src/domain/video/schemas.ts';
import { fakeVideoSource } from '../support/fake-video-source.ts';
import { storeManualTranscript } from '../support/stores.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const STORED = 'StoredPage1';
const segments: Segment[] = [{ start: 0, end: 1, text: 'hello' }];

let s: TestServer;
let key: string;
beforeAll(async () => {
  s = await startTestServer({}, { youtube: fakeVideoSource() });
  await storeManualTranscript(s.deps.sql, STORED, segments);
  key = (await s.newKey()).key;
});
afterAll(async () => s?.close());

const call = (headers: Record<string, string>) =>
  fetch(`${s.url}/trpc/subtitles.get`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, ...headers },
    body: JSON.stringify({ videoId: STORED }),
  });

describe('tRPC stored page: the headers tRPC refuses are refused', () => {
  it('a media type that only starts with application/json: 415, as tRPC answers', async () => {
    const res = await call({ 'content-type': 'application/jsonx' });
    expect(res.status).toBe(415);
    expect((await res.json()).error.data.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('streaming asked for in accept on a single call: 400, as tRPC answers', async () => {
    const res = await call({ 'content-type': 'application/json', accept: 'application/jsonl' });
    expect(res.status).toBe(400);
    expect((await res.json()).error.data.code).toBe('INVALID_REQUEST');
  });

  it('a JSON media type in other case or with parameters is still answered', async () => {
    for (const type of ['Application/JSON', 'application/json; charset=utf-8']) {
      const res = await call({ 'content-type': type });
      expect(res.status).toBe(200);
      expect((await res.json()).result.data.videoId).toBe(STORED);
    }
  });
});
