// videos.chapters (GET /videos/{videoId}/chapters, MCP get_video_chapters): the chapters of the video info, each with
// its end, the same on REST, tRPC and MCP; free, and a free lookup (FREE_LOOKUPS_PER_10_MIN) like the info itself.
// Over recorded videos: ud9d5cMDP_0's description lists seven chapters (SOURCES.md), GJLlxj_dtq8 has none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpClient, rest, trpcClient } from '../support/clients.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { balanceOf, ID, startRecordedHarness, type Harness } from '../transcripts/recorded-youtube.ts';

const FREE_LOOKUPS = 2;
let h: Harness;
beforeAll(async () => {
  if (sharedAvailable) h = await startRecordedHarness({ FREE_LOOKUPS_PER_10_MIN: String(FREE_LOOKUPS) });
});
afterAll(() => h?.close());

type Chapter = { title: string; start: number; end: number };

describe.skipIf(!sharedAvailable)('a video’s chapters', () => {
  it('REST, tRPC and MCP answer the info’s chapters, each ending where the next starts; free', async () => {
    const { key } = await h.s.newKey({ credits: 10 });
    const r = await rest(h.s.url, 'GET', `/videos/${ID.manualOnlyDe}/chapters`, { key });
    expect(r.status, r.text).toBe(200);
    const chapters = r.json.chapters as Chapter[];
    expect(chapters).toHaveLength(7);
    expect(chapters.slice(0, 2)).toEqual([
      { title: 'Ein erstaunlich kontroverses Thema', start: 0, end: 164 },
      { title: 'Was ist Vitamin D?', start: 164, end: 364 },
    ]);
    expect(chapters.slice(1).map((c) => c.start)).toEqual(chapters.slice(0, -1).map((c) => c.end));
    expect(chapters.at(-1)!.end).toBe(r.json.duration);

    const info = await rest(h.s.url, 'GET', `/videos/${ID.manualOnlyDe}`, { key });
    expect(chapters.map(({ title, start }) => ({ title, start }))).toEqual(info.json.chapters);

    const viaTrpc = await trpcClient(h.s.url, key).videos.chapters.query({ videoId: ID.manualOnlyDe });
    expect(viaTrpc).toEqual(r.json);
    const client = await mcpClient(h.s.url, key);
    const tool = (await client.callTool({
      name: 'get_video_chapters',
      arguments: { videoId: `https://youtu.be/${ID.manualOnlyDe}` },
    })) as { structuredContent?: unknown; isError?: boolean };
    await client.close();
    expect(tool.isError).toBeFalsy();
    expect(tool.structuredContent).toEqual(r.json);

    const none = await rest(h.s.url, 'GET', `/videos/${ID.captions9}/chapters`, { key });
    expect(none.status, none.text).toBe(200);
    expect(none.json).toMatchObject({ videoId: ID.captions9, chapters: [] });
    expect(await balanceOf(h.s, key)).toBe(10);
  });

  it('an unstored video takes one of the account’s free lookups: past them, 429 before YouTube is asked', async () => {
    const { key } = await h.s.newKey({ rateLimit: 100_000 });
    const [first, second, third] = [ID.tracks19, ID.tracks36, ID.web15];
    for (const videoId of [first, second]) {
      const r = await rest(h.s.url, 'GET', `/videos/${videoId}/chapters`, { key });
      expect(r.status, r.text).toBe(200);
    }
    const asked = h.yt.requests.length;
    const refused = await rest(h.s.url, 'GET', `/videos/${third}/chapters`, { key });
    expect(refused.status).toBe(429);
    expect(refused.json.error.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(h.yt.requests.length).toBe(asked);
    // A video already stored is no lookup: still answered.
    expect((await rest(h.s.url, 'GET', `/videos/${first}/chapters`, { key })).status).toBe(200);
  });
});
