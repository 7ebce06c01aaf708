// Review attack on per-call request ids (a354838), extractions: calls of one batch asking for the same transcript
// share one extraction job, which names one call as its payer; the others must answer free, and batches at once
// against a small balance must leave the ledger equal to what the answers reported, each video paid once. Batches
// (the resource) created by calls of one tRPC batch charge their videos under ids made from the creating call's: with
// one id for both, each batch's first video read the other's charge too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSCRIPT_PRICE } from '../../src/domain/pricing/prices.ts';
import { rest } from '../support/clients.ts';
import { fakeVideoSource, freshVideoId } from '../support/fake-video-source.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { pollUntil } from '../transcripts/recorded-youtube.ts';

type TrpcAnswer = {
  result?: { data: { creditsCharged: number; videoId: string } };
  error?: { data: { code: string } };
};
type Content = { type: string; text?: string };
type RpcAnswer = { id: number; result?: { isError?: boolean; content?: Content[] }; error?: { code: number } };

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({}, { youtube: fakeVideoSource() });
});
afterAll(async () => s?.close());

const balance = async (key: string) => (await rest(s.url, 'GET', '/credits', { key })).json.balance as number;

async function charges(key: string) {
  const r = await rest(s.url, 'GET', '/credits/history?limit=100', { key });
  const entries = r.json.entries as { requestId: string; credits: number; videoId: string | null }[];
  return entries.filter((e) => e.credits < 0).map((e) => ({ ...e, credits: -e.credits }));
}

async function trpcTranscripts(key: string, inputs: object[]): Promise<TrpcAnswer[]> {
  const res = await fetch(`${s.url}/trpc/${inputs.map(() => 'subtitles.get').join(',')}?batch=1`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(Object.fromEntries(inputs.map((input, i) => [i, input]))),
  });
  return (await res.json()) as TrpcAnswer[];
}

describe('extractions across the calls of batches', () => {
  it('tRPC: one transcript asked by three calls of a batch is extracted and paid once, reported paid once', async () => {
    const { key } = await s.newKey({ credits: 10 });
    const v = freshVideoId();
    const answers = await trpcTranscripts(key, [{ videoId: v }, { videoId: v }, { videoId: v, offset: 1 }]);
    expect(answers.map((a) => a.result!.data.creditsCharged).sort()).toEqual([0, 0, TRANSCRIPT_PRICE]);
    expect((await charges(key)).map((c) => c.credits)).toEqual([TRANSCRIPT_PRICE]);
    expect(await balance(key)).toBe(10 - TRANSCRIPT_PRICE);
  });

  it('MCP 2025-03-26: a tools/call and a resources/read of one transcript in a batch pay once', async () => {
    const { key } = await s.newKey({ credits: 10 });
    const v = freshVideoId();
    const res = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-03-26',
      },
      body: JSON.stringify([
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'get_video_subtitles', arguments: { videoId: v } },
        },
        { jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: `subtext://videos/${v}/transcript` } },
      ]),
    });
    const answers = (await res.json()) as RpcAnswer[];
    expect(answers.every((a) => !a.error && !a.result?.isError)).toBe(true);
    expect((await charges(key)).map((c) => c.credits)).toEqual([TRANSCRIPT_PRICE]);
    expect(await balance(key)).toBe(10 - TRANSCRIPT_PRICE);
  });

  it('batches at once against a small balance: each video paid at most once, the ledger what was answered', async () => {
    const { key } = await s.newKey({ credits: 2 * TRANSCRIPT_PRICE });
    const videos = [freshVideoId(), freshVideoId(), freshVideoId()];
    const batches = await Promise.all(
      [0, 1, 2].map((shift) =>
        trpcTranscripts(
          key,
          [0, 1, 2].map((i) => ({ videoId: videos[(i + shift) % 3] })),
        ),
      ),
    );
    const answers = batches.flat();
    for (const a of answers.filter((x) => x.error)) expect(a.error!.data.code).toBe('INSUFFICIENT_CREDITS');
    const reported = answers.reduce((n, a) => n + (a.result?.data.creditsCharged ?? 0), 0);
    const ledger = await charges(key);
    expect(ledger.reduce((n, c) => n + c.credits, 0)).toBe(reported);
    expect(new Set(ledger.map((c) => c.videoId)).size).toBe(ledger.length);
    expect(await balance(key)).toBe(2 * TRANSCRIPT_PRICE - reported);
    expect(reported).toBeLessThanOrEqual(2 * TRANSCRIPT_PRICE);
  });

  it('tRPC: two batches created by calls of one tRPC batch each report their own videos’ charges', async () => {
    const { key } = await s.newKey({ credits: 10, rateLimit: 10_000 });
    const create = (videoId: string) => ({ videos: [videoId], operation: { type: 'transcript' } });
    const res = await fetch(`${s.url}/trpc/batches.create,batches.create?batch=1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ 0: create(freshVideoId()), 1: create(freshVideoId()) }),
    });
    const ids = ((await res.json()) as { result: { data: { id: string } } }[]).map((a) => a.result.data.id);
    const ended: { status: string; creditsCharged: number; items: { creditsCharged: number }[] }[] = [];
    for (const id of ids) {
      let batch: (typeof ended)[number] | undefined;
      await pollUntil(
        async () => (batch = (await rest(s.url, 'GET', `/batches/${id}`, { key })).json).status !== 'running',
        `batch ${id} ends`,
        20_000,
      );
      ended.push(batch!);
    }
    for (const b of ended) {
      expect(b).toMatchObject({ status: 'succeeded', creditsCharged: TRANSCRIPT_PRICE });
      expect(b.items.map((i) => i.creditsCharged)).toEqual([TRANSCRIPT_PRICE]);
    }
    expect(await balance(key)).toBe(10 - 2 * TRANSCRIPT_PRICE);
  });
});
