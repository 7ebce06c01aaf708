// Chapters on the video info answer and the URL forms people paste, through REST, tRPC and MCP, over a recorded
// VISIONOS answer whose description lists its chapters (ud9d5cMDP_0, SOURCES.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpClient, rest, trpcClient } from '../support/clients.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { ID, startRecordedHarness, type Harness } from '../transcripts/recorded-youtube.ts';

let h: Harness;
beforeAll(async () => {
  if (sharedAvailable) h = await startRecordedHarness();
});
afterAll(() => h?.close());

const CHAPTERS = [
  { title: 'Ein erstaunlich kontroverses Thema', start: 0 },
  { title: 'Was ist Vitamin D?', start: 164 },
  { title: 'Die Saisonalitätshypothese', start: 364 },
  { title: 'Klinische Studien zu Vitamin D', start: 498 },
  { title: 'Ab wann hat man Vitamin-D-Mangel?', start: 615 },
  { title: 'Vorsicht vor pauschalen Empfehlungen', start: 803 },
  { title: 'Keksempfehlungen', start: 981 },
];

describe.skipIf(!sharedAvailable)('chapters', () => {
  it('REST, tRPC and MCP answer the description’s chapters; MCP’s text lists them with their times', async () => {
    const { key } = await h.s.newKey();
    const r = await rest(h.s.url, 'GET', `/videos/${ID.manualOnlyDe}`, { key });
    expect(r.status).toBe(200);
    expect(r.json.chapters).toEqual(CHAPTERS);
    expect((await trpcClient(h.s.url, key).videos.info.query({ videoId: ID.manualOnlyDe })).chapters).toEqual(CHAPTERS);
    const client = await mcpClient(h.s.url, key);
    const tool = (await client.callTool({
      name: 'get_video_info',
      arguments: { videoId: ID.manualOnlyDe },
    })) as unknown as { structuredContent: { chapters: unknown }; content: { text: string }[] };
    await client.close();
    expect(tool.structuredContent.chapters).toEqual(CHAPTERS);
    expect(tool.content[0]!.text).toMatch(
      /Chapters \(7\):\n\[0:00\] Ein erstaunlich kontroverses Thema\n\[2:44\] Was ist Vitamin D\?/,
    );
  });
});

describe.skipIf(!sharedAvailable)('URL forms', () => {
  it.each([
    `https://www.youtube.com/watch?v=${ID.manualOnlyDe}&t=164s&si=Ab12Cd34Ef56Gh78`,
    `https://youtu.be/${ID.manualOnlyDe}?si=Ab12Cd34Ef56Gh78&t=2m44s`,
    `https://m.youtube.com/watch?v=${ID.manualOnlyDe}&feature=youtu.be`,
    `https://music.youtube.com/watch?v=${ID.manualOnlyDe}&si=Ab12Cd34Ef56Gh78&list=RDAMVM${ID.manualOnlyDe}`,
    `https://www.youtube.com/shorts/${ID.manualOnlyDe}?si=Ab12Cd34Ef56Gh78`,
    `https://m.youtube.com/shorts/${ID.manualOnlyDe}`,
    `https://www.youtube.com/live/${ID.manualOnlyDe}?si=Ab12Cd34Ef56Gh78&t=30`,
    `https://www.youtube.com/embed/${ID.manualOnlyDe}?start=164&si=Ab12Cd34Ef56Gh78`,
    `https://www.youtube-nocookie.com/embed/${ID.manualOnlyDe}`,
  ])('%s resolves to the video', async (url) => {
    const { key } = await h.s.newKey();
    const r = await rest(h.s.url, 'GET', `/videos/${encodeURIComponent(url)}`, { key });
    expect(r.status, r.text).toBe(200);
    expect(r.json.videoId).toBe(ID.manualOnlyDe);
  });
});
