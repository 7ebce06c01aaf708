// The hot path parses nothing: a stored transcript asked for again and again over REST, tRPC and MCP is answered
// from the bytes the cache holds once, never turned back into values. JSON.parse is counted in this process, where
// the service runs; the test reads answers as bytes while counting, so every parse counted is the service's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Segment } from '../../src/domain/video/schemas.ts';
import { fakeVideoSource } from '../support/fake-video-source.ts';
import { readTranscript, storeManualTranscript } from '../support/stores.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const VIDEO = 'ParseNone01';
const REQUESTS = 1000;
const CONCURRENCY = 8;

/** 1,000 segments, each text unique, so a parse of any part of them can be recognized. */
const segments: Segment[] = Array.from({ length: 1000 }, (_, i) => ({
  start: i * 3.6,
  end: i * 3.6 + 3.4,
  text: `stored-segment-${i} says "hello" \\ ünïcödé`,
}));

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({}, { youtube: fakeVideoSource() });
  await storeManualTranscript(s.deps.sql, VIDEO, segments, {
    title: 'Stored once',
    duration: 3600,
    publishDate: '2024-01-01',
    channelName: 'Test',
    viewCount: 1,
  });
});
afterAll(() => s?.close());

/** Counts JSON.parse calls whose text holds any stored segment, while `run` runs. */
async function parsesOfStored(run: () => Promise<void>): Promise<number> {
  const original = JSON.parse;
  let count = 0;
  JSON.parse = function countingParse(this: unknown, text: string, reviver?: Parameters<typeof original>[1]) {
    if (typeof text === 'string' && text.includes('stored-segment-')) count++;
    return original.call(this, text, reviver);
  } as typeof JSON.parse;
  try {
    await run();
  } finally {
    JSON.parse = original;
  }
  return count;
}

/** `n` requests, `CONCURRENCY` at a time, each answer read as bytes and checked to be 200 and the same bytes. */
async function ask(n: number, send: () => Promise<Response>): Promise<Uint8Array[]> {
  const bodies: Uint8Array[] = [];
  let left = n;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (left-- > 0) {
        const res = await send();
        expect(res.status).toBe(200);
        bodies.push(new Uint8Array(await res.arrayBuffer()));
      }
    }),
  );
  return bodies;
}

const sameBytes = (bodies: Uint8Array[]) => bodies.every((b) => Buffer.compare(b, bodies[0]!) === 0);

describe('a stored transcript on the hot path', () => {
  it("is answered 1,000 times on each surface from the bytes cached once; JSON.parse reads them only for MCP's first text lines", async () => {
    const { key } = await s.newKey({ credits: 10, rateLimit: 1_000_000 });
    const headers = {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const body = JSON.stringify({ videoId: VIDEO });
    const post = (path: string, b = body) => fetch(`${s.url}${path}`, { method: 'POST', headers, body: b });
    const call = (id: number) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'get_video_subtitles', arguments: { videoId: VIDEO, limit: 5000 } },
      });

    let restBodies: Uint8Array[] = [];
    let trpcBodies: Uint8Array[] = [];
    let mcpBodies: Uint8Array[] = [];
    const rest = await parsesOfStored(async () => {
      restBodies = await ask(REQUESTS, () => post('/api/v1/subtitles'));
    });
    const trpc = await parsesOfStored(async () => {
      trpcBodies = await ask(REQUESTS, () => post('/trpc/subtitles.get'));
    });
    // MCP renders the page's text lines from its values once, and keeps them for every later call.
    const mcpFirst = await parsesOfStored(async () => {
      mcpBodies = await ask(1, () => post('/mcp', call(1)));
    });
    const mcp = await parsesOfStored(async () => {
      mcpBodies.push(...(await ask(REQUESTS - 1, () => post('/mcp', call(1)))));
    });

    expect({ rest, trpc, mcpFirst, mcp }).toEqual({ rest: 0, trpc: 0, mcpFirst: 1, mcp: 0 });
    expect([sameBytes(restBodies), sameBytes(trpcBodies), sameBytes(mcpBodies)]).toEqual([true, true, true]);

    // The cache holds the stored text once: its bytes are exactly the stored JSON's.
    const stored = (await readTranscript(s.deps.sql, VIDEO, 'en', 'manual'))!;
    expect(s.deps.hotCache.transcriptBytes).toBe(Buffer.byteLength(stored.body));

    // And the bytes are the whole answer on each surface.
    const answer = JSON.parse(Buffer.from(restBodies[0]!).toString()) as { segments: Segment[] };
    expect(answer).toMatchObject({ status: 'succeeded', videoId: VIDEO, segmentCount: 1000, cached: true });
    expect(answer.segments).toEqual(segments);
    expect(JSON.parse(Buffer.from(trpcBodies[0]!).toString())).toEqual({ result: { data: answer } });
    const result = JSON.parse(Buffer.from(mcpBodies[0]!).toString()) as {
      result: { structuredContent: unknown; content: { text: string }[] };
    };
    expect(result.result.structuredContent).toEqual(answer);
    expect(result.result.content[0]!.text).toContain('[0:59:56] stored-segment-999 says "hello" \\ ünïcödé');
  }, 600_000); // 3,000 requests on a shared machine
});
