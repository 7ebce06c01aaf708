// Chapters inside the transcript (`chapters=true`) over a recorded video whose description lists seven chapters
// (ud9d5cMDP_0, SOURCES.md). Its caption download is answered with the recorded styled track (249 s, see
// recorded-youtube.ts), so the segments fall under the first two chapters; the rest hold none and are left out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpClient, rest, trpcClient } from '../support/clients.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { ID, startRecordedHarness, STYLED_SEGMENTS, type Harness } from './recorded-youtube.ts';

let h: Harness;
beforeAll(async () => {
  if (sharedAvailable) h = await startRecordedHarness();
});
afterAll(() => h?.close());

type Seg = { start: number; end: number; text: string };
type Chapter = { title: string; start: number; end: number; offset: number; segments: Seg[] };

describe.skipIf(!sharedAvailable)('chapters inside the transcript', () => {
  it('REST: the segments grouped under the video’s chapters, in order, each inside its chapter', async () => {
    const { key } = await h.s.newKey({ credits: 10 });
    const r = await rest(h.s.url, 'POST', '/subtitles', { key, body: { videoId: ID.manualOnlyDe, chapters: true } });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ creditsCharged: 2, segmentCount: STYLED_SEGMENTS.count });
    const chapters = r.json.chapters as Chapter[];
    expect(chapters.map(({ segments: _s, ...c }) => c)).toEqual([
      { title: 'Ein erstaunlich kontroverses Thema', start: 0, end: 164, offset: 0 },
      { title: 'Was ist Vitamin D?', start: 164, end: 364, offset: chapters[0]!.segments.length },
    ]);
    // Every segment once, in order, under the chapter it starts in.
    expect(chapters.flatMap((c) => c.segments)).toEqual(r.json.segments);
    for (const c of chapters) for (const x of c.segments) expect(x.start >= c.start && x.start < c.end).toBe(true);
    expect(chapters[0]!.segments.length).toBeGreaterThan(10);
    expect(chapters[1]!.segments.length).toBeGreaterThan(10);

    // Free: the same stored transcript, and without the option the answer has no chapters.
    const plain = await rest(h.s.url, 'POST', '/subtitles', { key, body: { videoId: ID.manualOnlyDe } });
    expect(plain.json).toMatchObject({ cached: true, creditsCharged: 0 });
    expect(plain.json.chapters).toBeUndefined();
  });

  it('a page holds the chapters of its segments only', async () => {
    const { key } = await h.s.newKey({ credits: 10 });
    const whole = await rest(h.s.url, 'POST', '/subtitles', {
      key,
      body: { videoId: ID.manualOnlyDe, chapters: true },
    });
    const second = whole.json.chapters[1] as Chapter;
    const r = await rest(h.s.url, 'POST', '/subtitles', {
      key,
      body: { videoId: ID.manualOnlyDe, chapters: true, offset: second.offset + 1, limit: 3 },
    });
    expect(r.json.chapters).toEqual([{ ...second, offset: second.offset + 1, segments: second.segments.slice(1, 4) }]);
  });

  it('text format and MCP text: each chapter’s title as a heading; tRPC answers the same chapters', async () => {
    const { key } = await h.s.newKey({ credits: 10 });
    const r = await rest(h.s.url, 'POST', '/subtitles', {
      key,
      body: { videoId: ID.manualOnlyDe, chapters: true, format: 'text' },
    });
    const first = r.json.chapters[0].segments[0].text;
    const secondFirst = r.json.chapters[1].segments[0].text;
    expect(r.json.content.startsWith(`## Ein erstaunlich kontroverses Thema (0:00)\n\n${first}\n`)).toBe(true);
    expect(r.json.content).toContain(`\n\n## Was ist Vitamin D? (2:44)\n\n${secondFirst}\n`);
    expect(r.json.content).not.toContain('Keksempfehlungen');

    const viaTrpc = await trpcClient(h.s.url, key).subtitles.get.mutate({ videoId: ID.manualOnlyDe, chapters: true });
    expect(viaTrpc.status === 'succeeded' && viaTrpc.chapters).toEqual(
      (await rest(h.s.url, 'POST', '/subtitles', { key, body: { videoId: ID.manualOnlyDe, chapters: true } })).json
        .chapters,
    );

    const client = await mcpClient(h.s.url, key);
    const tool = (await client.callTool({
      name: 'get_video_subtitles',
      arguments: { videoId: ID.manualOnlyDe, chapters: true },
    })) as unknown as { structuredContent: { chapters: Chapter[] }; content: { text: string }[] };
    await client.close();
    expect(tool.structuredContent.chapters.map((c) => c.title)).toEqual([
      'Ein erstaunlich kontroverses Thema',
      'Was ist Vitamin D?',
    ]);
    expect(tool.content[0]!.text).toMatch(/\n\n## Ein erstaunlich kontroverses Thema \(0:00\)\n\n\[0:00:00\] /);
    expect(tool.content[0]!.text).toMatch(/\n\n## Was ist Vitamin D\? \(2:44\)\n\n\[0:02:4\d\] /);
  });

  it('a video without chapters: chapters is null', async () => {
    const { key } = await h.s.newKey({ credits: 10 });
    const info = await rest(h.s.url, 'GET', `/videos/${ID.manualAndAsr}`, { key });
    expect(info.json.chapters).toEqual([]);
    const r = await rest(h.s.url, 'POST', '/subtitles', { key, body: { videoId: ID.manualAndAsr, chapters: true } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.chapters).toBeNull();
  });
});
