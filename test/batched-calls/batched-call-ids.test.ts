// Review attack (issue 23): several calls in one HTTP request, a tRPC batch (what httpBatchLink sends) or a 2025-03-26
// JSON-RPC batch over MCP. Each call is its own request for the ledger: its own request id, so its answer's
// creditsCharged is what the ledger took for that call, and the credit history tells the calls apart. With one id
// for the whole HTTP request, two captures of 2 and 1 new frames answered 3 and 2 while the ledger took 3.
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../src/router/index.ts';
import { chargedText } from '../../src/router/mcp-text/shared.ts';
import { rest } from '../support/clients.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { startMediaYoutube } from '../support/media-youtube.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const LONG = 'Fjg5lYqvzUs';

describe.skipIf(!sharedAvailable)('calls batched in one HTTP request', { timeout: 90_000 }, () => {
  let yt: Awaited<ReturnType<typeof startMediaYoutube>>;
  let s: TestServer;

  beforeAll(async () => {
    yt = await startMediaYoutube();
    s = await startTestServer({ YOUTUBE_BASE_URL: yt.origin, FRAME_CONCURRENCY: '2' });
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    await yt?.close();
  });

  /** The caller's charges, summed per request id. */
  async function chargesByRequest(key: string): Promise<Map<string, number>> {
    const r = await rest(s.url, 'GET', '/credits/history?limit=100', { key });
    expect(r.status).toBe(200);
    const byRequest = new Map<string, number>();
    for (const e of r.json.entries as { requestId: string | null; credits: number }[]) {
      if (e.credits >= 0 || !e.requestId) continue;
      byRequest.set(e.requestId, (byRequest.get(e.requestId) ?? 0) - e.credits);
    }
    return byRequest;
  }

  it('tRPC: each call of a batch answers its own charge, and the history has one request id per call', async () => {
    const { key } = await s.newKey({ credits: 10 });
    let batches = 0;
    const client = createTRPCClient<AppRouter>({
      links: [
        httpBatchLink({
          url: `${s.url}/trpc`,
          headers: () => ({ authorization: `Bearer ${key}` }),
          fetch: (url, init) => {
            if (String(url).includes(',')) batches++;
            return fetch(url, init as RequestInit);
          },
        }),
      ],
    });
    const [two, one] = await Promise.all([
      client.frames.capture.mutate({ videoId: LONG, timestamps: [11, 12], width: 160 }),
      client.frames.capture.mutate({ videoId: LONG, timestamps: [13], width: 160 }),
    ]);
    expect(batches).toBe(1); // the two calls went in one HTTP request
    expect([two.frames.length, one.frames.length]).toEqual([2, 1]);
    expect([two.creditsCharged, one.creditsCharged]).toEqual([2, 1]);
    expect([...(await chargesByRequest(key)).values()].sort()).toEqual([1, 2]);
    expect((await rest(s.url, 'GET', '/credits', { key })).json.balance).toBe(7);
  });

  it('tRPC: a failing call of a batch names its own request id, not its neighbour’s', async () => {
    const { key } = await s.newKey({ credits: 10 });
    const res = await fetch(`${s.url}/trpc/frames.capture,frames.capture?batch=1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ 0: { videoId: LONG, timestamps: [14], width: 160 }, 1: { videoId: LONG, width: 160 } }),
    });
    // One call answered and charged, one refused: the request's status is tRPC's Multi-Status, not the refusal's.
    expect(res.status).toBe(207);
    const [ok, bad] = (await res.json()) as [
      { result: { data: { creditsCharged: number } } },
      { error: { data: { code: string; requestId: string } } },
    ];
    expect(ok.result.data.creditsCharged).toBe(1);
    expect(bad.error.data.code).toBe('INVALID_REQUEST');
    const ids = [...(await chargesByRequest(key)).keys()];
    expect(ids).toHaveLength(1);
    expect(bad.error.data.requestId).toMatch(/^req_/);
    expect(bad.error.data.requestId).not.toBe(ids[0]);
  });

  it('MCP 2025-03-26 batch: each tools/call answers its own charge', async () => {
    const { key } = await s.newKey({ credits: 10 });
    const call = (id: number, t: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'get_video_frame', arguments: { videoId: LONG, t, width: 160 } },
    });
    const res = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-03-26',
      },
      body: JSON.stringify([call(1, 21), call(2, 22)]),
    });
    expect(res.status).toBe(200);
    type Content = { type: string; text?: string };
    const answers = (await res.json()) as { id: number; result: { isError?: boolean; content: Content[] } }[];
    expect(answers).toHaveLength(2);
    for (const a of answers) {
      expect(a.result.isError ?? false).toBe(false);
      // The image tool's caption reports the charge.
      const caption = a.result.content.find((c) => c.type === 'text')?.text ?? '';
      expect(caption).toContain(`; ${chargedText(1)}.`);
    }
    expect([...(await chargesByRequest(key)).values()]).toEqual([1, 1]);
  });
});
