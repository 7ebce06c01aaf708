// MCP prompts through the SDK's real client on every revision: listed with their arguments, resolved into
// instructions that name the tools to use and link the transcript resource; bad arguments are -32602.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeVideoSource } from '../support/fake-video-source.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { clientAt, rejection, REVISIONS } from './mcp-clients.ts';

let s: TestServer;
let key: string;
beforeAll(async () => {
  s = await startTestServer({}, { youtube: fakeVideoSource() });
  ({ key } = await s.newKey({ credits: 10 }));
});
afterAll(() => s?.close());

describe.each(REVISIONS)('prompts on %s', (revision) => {
  it('lists the three prompts with their arguments', async () => {
    const c = await clientAt(s.url, key, revision);
    const { prompts } = await c.listPrompts();
    const byName = Object.fromEntries(prompts.map((p) => [p.name, p]));
    expect(Object.keys(byName).sort()).toEqual(['compare_videos', 'find_moment', 'summarize_video']);
    const args = (name: string) => byName[name]!.arguments!.map((a) => [a.name, a.required ?? false]);
    expect(args('summarize_video')).toEqual([
      ['video', true],
      ['lang', false],
    ]);
    expect(args('find_moment')).toEqual([
      ['video', true],
      ['said', true],
      ['lang', false],
    ]);
    expect(args('compare_videos')).toEqual([
      ['topic', true],
      ['playlist', false],
      ['videos', false],
      ['lang', false],
    ]);
    for (const p of prompts) expect(p.description!.length).toBeGreaterThan(20);
    await c.close();
  });

  it('resolve into instructions using the tools, with the transcript resource linked', async () => {
    const c = await clientAt(s.url, key, revision);
    const summary = await c.getPrompt({
      name: 'summarize_video',
      arguments: { video: 'https://youtu.be/dQw4w9WgXcQ', lang: 'en' },
    });
    const text = (summary.messages[0]!.content as any).text as string;
    expect(text).toContain('get_video_subtitles');
    expect(text).toMatch(/\[h:mm:ss\]/);
    expect(summary.messages[1]!.content).toMatchObject({
      type: 'resource_link',
      uri: 'subtext://videos/dQw4w9WgXcQ/transcript?lang=en',
    });
    // The link reads: the prompt's resource is the transcript itself.
    const read = await c.readResource({ uri: (summary.messages[1]!.content as any).uri });
    expect((read.contents[0] as any).text).toContain('hello');

    const moment = await c.getPrompt({ name: 'find_moment', arguments: { video: 'dQw4w9WgXcQ', said: 'world' } });
    expect((moment.messages[0]!.content as any).text).toMatch(/"world"[\s\S]*get_video_frame/);

    const compare = await c.getPrompt({ name: 'compare_videos', arguments: { topic: 'climate', videos: '3' } });
    expect((compare.messages[0]!.content as any).text).toMatch(
      /first 3 results of a YouTube search.*search_youtube_videos/,
    );
    const playlist = await c.getPrompt({
      name: 'compare_videos',
      arguments: { topic: 'climate', playlist: 'PLx0sYbCqOb8TBPRdmBHs5Iftvv9TPboYG' },
    });
    expect((playlist.messages[0]!.content as any).text).toContain('list_playlist_videos');
    await c.close();
  });

  it('missing or bad arguments, and unknown prompts, are -32602', async () => {
    const c = await clientAt(s.url, key, revision);
    expect((await rejection(c.getPrompt({ name: 'find_moment', arguments: { video: 'x' } }))).code).toBe(-32602);
    expect(
      (await rejection(c.getPrompt({ name: 'compare_videos', arguments: { topic: 't', videos: '99' } }))).code,
    ).toBe(-32602);
    expect((await rejection(c.getPrompt({ name: 'no_such_prompt' }))).code).toBe(-32602);
    await c.close();
  });
});
