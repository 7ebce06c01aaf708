// Review attack on per-call request ids (a354838): every failing call of a tRPC or JSON-RPC batch names its own
// request id, the first call of a tRPC batch the HTTP request's (`x-request-id`). Two ways the ids went wrong: tRPC
// parses a batch's body once and hands the same error object to every call, so marking it with one call's id
// named that id for all of them (the first call included); and a batched resources/read reported the HTTP request's
// id while its charge, like a batched tools/call's, is under an id of its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedAvailable } from '../support/fixture-files.ts';
import { startMediaYoutube } from '../support/media-youtube.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const LONG = 'Fjg5lYqvzUs';

type TrpcError = { error: { message: string; data: { code: string; requestId: string } } };
type RpcAnswer = { id: number; error?: { code: number; data?: { requestId?: string } } };

describe.skipIf(!sharedAvailable)('request ids of failing batched calls', { timeout: 90_000 }, () => {
  let yt: Awaited<ReturnType<typeof startMediaYoutube>>;
  let s: TestServer;

  beforeAll(async () => {
    yt = await startMediaYoutube();
    s = await startTestServer({ YOUTUBE_BASE_URL: yt.origin });
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    await yt?.close();
  });

  it('tRPC: a body nobody can parse fails every call, each naming its own id and the first the x-request-id', async () => {
    const { key } = await s.newKey({ credits: 10 });
    const res = await fetch(`${s.url}/trpc/frames.capture,frames.capture,frames.capture?batch=1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: '{"0": {',
    });
    const answers = (await res.json()) as TrpcError[];
    expect(answers.map((a) => a.error.data.code)).toEqual(['INVALID_REQUEST', 'INVALID_REQUEST', 'INVALID_REQUEST']);
    const ids = answers.map((a) => a.error.data.requestId);
    expect(ids[0]).toBe(res.headers.get('x-request-id'));
    expect(new Set(ids).size).toBe(3);
  });

  it('MCP 2025-03-26: each failing resources/read of a batch names its own id, as a tools/call does', async () => {
    const { key } = await s.newKey({ credits: 10 });
    // Past the end of the 6.4 h video: refused (400, invalid params) with the spec's data, requestId included.
    const read = (id: number, t: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'resources/read',
      params: { uri: `subtext://frames/${LONG}/${t}` },
    });
    const res = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-03-26',
      },
      body: JSON.stringify([read(1, 99_999), read(2, 99_998)]),
    });
    expect(res.status).toBe(200);
    const answers = (await res.json()) as RpcAnswer[];
    expect(answers.map((a) => a.error?.code)).toEqual([-32602, -32602]);
    const ids = answers.map((a) => a.error?.data?.requestId);
    for (const id of ids) expect(id).toMatch(/^req_/);
    expect(new Set(ids).size).toBe(2);
    expect(ids).not.toContain(res.headers.get('x-request-id'));
  });
});
