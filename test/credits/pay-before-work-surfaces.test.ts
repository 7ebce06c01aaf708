// Pay before work across surfaces: REST, tRPC and MCP requests for paid model work from one account at once share
// one balance, and the model is called only for work that was paid. Two accounts asking for the same work: the model
// is called once, nobody goes below zero, nobody pays twice.
import { describe, expect, it } from 'vitest';
import { mcpClient, rest, trpcClient } from '../support/clients.ts';
import { useModelService } from '../support/model-service.ts';

const h = useModelService();

const account = async (accountId: string) =>
  (
    await h.s.deps.sql<{ purchased_balance: number; held_credits: number }[]>`
      select purchased_balance, held_credits from accounts where id = ${accountId}`
  )[0];

const charged = async (accountId: string) =>
  (
    await h.s.deps.sql<{ n: number }[]>`
      select coalesce(-sum(delta), 0)::int as n from credit_ledger where account_id = ${accountId} and kind = 'charge'`
  )[0]!.n;

/** 'ok', or the refusal's code, whatever the surface. */
async function outcome(call: () => Promise<unknown>): Promise<string> {
  try {
    const r = (await call()) as {
      status?: number;
      json?: { error?: { code: string } };
      isError?: boolean;
      content?: { text: string }[];
    };
    if (typeof r.status === 'number') return r.status === 200 ? 'ok' : (r.json?.error?.code ?? String(r.status));
    if (r.isError) return JSON.parse(r.content![0]!.text).error.code;
    return 'ok';
  } catch (err) {
    return (err as { data?: { code?: string } }).data?.code ?? String((err as Error).message).slice(0, 80);
  }
}

describe('paid model work across REST, tRPC and MCP', { timeout: 90_000 }, () => {
  it('12 translations and articles at once on three surfaces with 1 credit: one is done, the model called once', async () => {
    const videos = await h.shortVideos(12);
    const { key, accountId } = await h.s.newKey({ credits: 1 });
    const trpc = trpcClient(h.s.url, key);
    const mcp = await mcpClient(h.s.url, key);
    const before = h.fake.requests.length;
    const calls = videos.map(({ videoId }, i) => {
      const t = { videoId, sourceLang: 'en', targetLang: 'fr' };
      const a = { videoId, lang: 'en' };
      return [
        () => rest(h.s.url, 'POST', '/transcripts/translate', { key, body: t }),
        () => trpc.transcripts.translate.mutate(t),
        () => mcp.callTool({ name: 'translate_transcript', arguments: t }),
        () => rest(h.s.url, 'POST', '/summaries', { key, body: a }),
        () => trpc.summaries.create.mutate(a),
        () => mcp.callTool({ name: 'summarize_video', arguments: a }),
      ][i % 6]!;
    });
    const outcomes = await Promise.all(calls.map(outcome));
    await mcp.close();
    expect(
      outcomes.filter((o) => o === 'ok'),
      outcomes.join(','),
    ).toHaveLength(1);
    expect(
      outcomes.filter((o) => o !== 'ok').every((o) => o === 'INSUFFICIENT_CREDITS'),
      outcomes.join(','),
    ).toBe(true);
    expect(h.fake.requests.length - before).toBe(1);
    expect(await account(accountId)).toEqual({ purchased_balance: 0, held_credits: 0 });
    expect(await charged(accountId)).toBe(1);
  });

  it('two accounts, 1 credit each, the same translation at once on every surface: the model called once, nobody charged twice', async () => {
    const { videoId } = (await h.shortVideos(1))[0]!;
    const a = await h.s.newKey({ credits: 1 });
    const b = await h.s.newKey({ credits: 1 });
    const t = { videoId, sourceLang: 'en', targetLang: 'es' };
    const clients = await Promise.all(
      [a, b].map(async (k) => ({ k, trpc: trpcClient(h.s.url, k.key), mcp: await mcpClient(h.s.url, k.key) })),
    );
    const before = h.fake.requests.length;
    const outcomes = await Promise.all(
      clients.flatMap(({ k, trpc, mcp }) => [
        outcome(() => rest(h.s.url, 'POST', '/transcripts/translate', { key: k.key, body: t })),
        outcome(() => trpc.transcripts.translate.mutate(t)),
        outcome(() => mcp.callTool({ name: 'translate_transcript', arguments: t })),
        outcome(() => rest(h.s.url, 'POST', '/transcripts/translate', { key: k.key, body: t })),
      ]),
    );
    for (const c of clients) await c.mcp.close();
    expect(outcomes.filter((o) => o === 'ok').length, outcomes.join(',')).toBeGreaterThanOrEqual(1);
    expect(h.fake.requests.length - before).toBe(1);
    for (const k of [a, b]) {
      const acc = await account(k.accountId);
      expect(acc!.held_credits).toBe(0);
      expect(acc!.purchased_balance).toBeGreaterThanOrEqual(0);
      expect(await charged(k.accountId)).toBeLessThanOrEqual(1);
    }
  });
});
