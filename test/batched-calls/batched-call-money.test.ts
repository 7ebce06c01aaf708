// Review attack on per-call request ids (a354838): money and limits across the calls of one HTTP request. A batch
// must not get more calls than the window has room for, nor spend more than the balance; the same frame asked twice
// in one batch is paid once and reported paid once; several batches at once, over tRPC and MCP, sharing frames
// between them, leave a ledger whose charges are exactly what the answers reported.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargedText } from '../../src/router/mcp-text/shared.ts';
import { rest } from '../support/clients.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { startMediaYoutube } from '../support/media-youtube.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const LONG = 'Fjg5lYqvzUs';

type TrpcAnswer = { result?: { data: { creditsCharged: number; frames: { t: number }[] } }; error?: TrpcError };
type TrpcError = { data: { code: string; requestId: string } };
type Content = { type: string; text?: string };
type RpcAnswer = {
  id: number;
  result?: { isError?: boolean; content?: Content[] };
  error?: { code: number; data?: { code?: string } };
};

describe.skipIf(!sharedAvailable)('money and limits across the calls of one batch', { timeout: 120_000 }, () => {
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

  const balance = async (key: string) => (await rest(s.url, 'GET', '/credits', { key })).json.balance as number;

  /** The caller's charges (positive numbers), oldest first. */
  async function charges(key: string): Promise<{ requestId: string; credits: number }[]> {
    const r = await rest(s.url, 'GET', '/credits/history?limit=100', { key });
    const entries = r.json.entries as { requestId: string | null; credits: number }[];
    return entries.filter((e) => e.credits < 0).map((e) => ({ requestId: e.requestId!, credits: -e.credits }));
  }

  async function trpcCaptures(key: string, inputs: object[]): Promise<TrpcAnswer[]> {
    const path = inputs.map(() => 'frames.capture').join(',');
    const res = await fetch(`${s.url}/trpc/${path}?batch=1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(Object.fromEntries(inputs.map((input, i) => [i, input]))),
    });
    return (await res.json()) as TrpcAnswer[];
  }

  async function mcpBatch(key: string, messages: object[]): Promise<RpcAnswer[]> {
    const res = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-03-26',
      },
      body: JSON.stringify(messages),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as RpcAnswer[]).sort((a, b) => a.id - b.id);
  }

  const toolCall = (id: number, name: string, args: object) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: args },
  });
  const frameRead = (id: number, t: number) => ({
    jsonrpc: '2.0',
    id,
    method: 'resources/read',
    params: { uri: `subtext://frames/${LONG}/${t}` },
  });
  const codeOfTool = (a: RpcAnswer) =>
    a.result?.isError ? (JSON.parse(a.result.content![0]!.text!) as { error: { code: string } }).error.code : 'OK';

  it('tRPC: a batch larger than the window gets exactly the window, the rest RATE_LIMITED', async () => {
    const { key } = await s.newKey({ rateLimit: 3 });
    const input = encodeURIComponent(JSON.stringify(Object.fromEntries([0, 1, 2, 3, 4, 5].map((i) => [i, {}]))));
    const res = await fetch(`${s.url}/trpc/${Array(6).fill('credits.get').join(',')}?batch=1&input=${input}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const answers = (await res.json()) as { result?: unknown; error?: TrpcError }[];
    expect(answers.filter((a) => a.result)).toHaveLength(3);
    expect(answers.filter((a) => a.error?.data.code === 'RATE_LIMITED')).toHaveLength(3);
    // The window is spent: a second batch gets nothing.
    const again = (await (
      await fetch(`${s.url}/trpc/credits.get,credits.get?batch=1&input=${encodeURIComponent('{"0":{},"1":{}}')}`, {
        headers: { authorization: `Bearer ${key}` },
      })
    ).json()) as { error?: TrpcError }[];
    expect(again.map((a) => a.error?.data.code)).toEqual(['RATE_LIMITED', 'RATE_LIMITED']);
  });

  it('MCP 2025-03-26: tools/call and resources/read of one batch share the window, past it RATE_LIMITED', async () => {
    const { key } = await s.newKey({ rateLimit: 3 });
    const answers = await mcpBatch(key, [
      toolCall(1, 'get_credits', {}),
      frameRead(2, 99_999),
      toolCall(3, 'get_credits', {}),
      frameRead(4, 99_998),
      toolCall(5, 'get_credits', {}),
      { jsonrpc: '2.0', id: 6, method: 'tools/list' },
    ]);
    const codes = answers.map((a) => (a.error ? (a.error.data?.code ?? String(a.error.code)) : codeOfTool(a)));
    // Protocol traffic is not counted; of the five operations, three ran (a read past the video's end is a 400).
    expect(codes[5]).toBe('OK');
    expect(codes.slice(0, 5).filter((c) => c === 'RATE_LIMITED')).toHaveLength(2);
  });

  it('tRPC: a batch of new frames against a small balance is charged at most the balance, as answered', async () => {
    const { key } = await s.newKey({ credits: 2 });
    const answers = await trpcCaptures(
      key,
      [31, 32, 33, 34].map((t) => ({ videoId: LONG, t, width: 176 })),
    );
    const ok = answers.filter((a) => a.result);
    expect(ok.length).toBeLessThanOrEqual(2);
    for (const a of answers.filter((x) => x.error)) expect(a.error!.data.code).toBe('INSUFFICIENT_CREDITS');
    const reported = ok.reduce((n, a) => n + a.result!.data.creditsCharged, 0);
    const ledger = await charges(key);
    expect(ledger.reduce((n, c) => n + c.credits, 0)).toBe(reported);
    expect(await balance(key)).toBe(2 - reported);
    expect(new Set(ledger.map((c) => c.requestId)).size).toBe(ledger.length);
  });

  it('the same frame twice in one batch is captured and charged once, and reported charged once', async () => {
    const { key } = await s.newKey({ credits: 10 });
    const trpc = await trpcCaptures(key, [
      { videoId: LONG, t: 41, width: 176 },
      { videoId: LONG, t: 41, width: 176 },
    ]);
    expect(trpc.map((a) => a.result!.data.creditsCharged).sort()).toEqual([0, 1]);
    const mcp = await mcpBatch(key, [
      toolCall(1, 'get_video_frame', { videoId: LONG, t: 42 }),
      toolCall(2, 'get_video_frame', { videoId: LONG, t: 42 }),
    ]);
    const captions = mcp.map((a) => a.result!.content!.find((c) => c.type === 'text')!.text!);
    expect(captions.filter((c) => c.includes(`; ${chargedText(1)}.`))).toHaveLength(1);
    expect(captions.filter((c) => c.includes(`; ${chargedText(0)}.`))).toHaveLength(1);
    expect(await balance(key)).toBe(8);
    expect((await charges(key)).map((c) => c.credits)).toEqual([1, 1]);
  });

  it('batches at once over tRPC and MCP, sharing frames, against a small balance: the ledger is what was answered', async () => {
    const { key } = await s.newKey({ credits: 5 });
    const capture = (ts: number[]) => ({ videoId: LONG, timestamps: ts, width: 640 });
    const reported: number[] = [];
    const shown = new Set<number>();
    await Promise.all([
      trpcCaptures(key, [capture([51, 52]), capture([53]), capture([52, 54])]).then((as) => {
        for (const a of as.filter((x) => x.result)) {
          reported.push(a.result!.data.creditsCharged);
          for (const f of a.result!.data.frames) shown.add(f.t);
        }
      }),
      trpcCaptures(key, [capture([54, 55]), capture([51])]).then((as) => {
        for (const a of as.filter((x) => x.result)) {
          reported.push(a.result!.data.creditsCharged);
          for (const f of a.result!.data.frames) shown.add(f.t);
        }
      }),
      mcpBatch(key, [
        toolCall(1, 'get_video_frame', { videoId: LONG, t: 53 }),
        toolCall(2, 'get_video_frame', { videoId: LONG, t: 56 }),
      ]).then((as) => {
        for (const a of as.filter((x) => !x.result?.isError)) {
          const caption = a.result!.content!.find((c) => c.type === 'text')!.text!;
          reported.push(Number(/; (\d+) credits? charged/.exec(caption)![1]));
          shown.add(Number(/ at ([\d.]+) s /.exec(caption)![1]));
        }
      }),
    ]);
    const ledger = await charges(key);
    const charged = ledger.reduce((n, c) => n + c.credits, 0);
    expect(reported.reduce((n, c) => n + c, 0)).toBe(charged);
    expect(await balance(key)).toBe(5 - charged);
    expect(charged).toBeLessThanOrEqual(5);
    // Nothing was stored before: every frame shown was captured and paid once, by one call.
    expect(ledger).toHaveLength(shown.size);
  });
});
