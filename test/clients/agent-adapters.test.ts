// Issue 33 part 3: @subtext/client/ai-sdk and /langchain on the real `ai` and `@langchain/core`, against a live
// service replaying recorded YouTube answers. The AI SDK's own test model calls the tools and reads their results;
// the loader's documents are checked field by field.
import { generateText, isStepCount } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subtextTools } from '../../clients/typescript/src/ai-sdk.ts';
import { SubtextLoader, subtextLangChainTools } from '../../clients/typescript/src/langchain.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { balanceOf, ID, STYLED_SEGMENTS, startRecordedHarness, type Harness } from '../transcripts/recorded-youtube.ts';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};
const toolCall = (toolName: string, input: unknown) => ({
  content: [{ type: 'tool-call' as const, toolCallId: `call-${toolName}`, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: 'tool-calls' as const, raw: 'tool_use' },
  usage,
  warnings: [],
});
const answer = (text: string) => ({
  content: [{ type: 'text' as const, text }],
  finishReason: { unified: 'stop' as const, raw: 'end_turn' },
  usage,
  warnings: [],
});

let h: Harness;
describe.skipIf(!sharedAvailable)('agent framework adapters against a live service', () => {
  beforeAll(async () => {
    h = await startRecordedHarness();
  });
  afterAll(() => h?.close());

  it('AI SDK: the test model calls get_transcript and reads the service’s answer; the call is charged once', async () => {
    const { key } = await h.s.newKey({ credits: 10 });
    const tools = subtextTools({ url: h.s.url, key });
    expect(Object.keys(tools).sort()).toEqual([
      'capture_frames',
      'get_transcript',
      'get_video_info',
      'list_videos',
      'search_articles',
      'summarize_video',
      'translate_transcript',
    ]);
    const model = new MockLanguageModelV4({
      doGenerate: [toolCall('get_transcript', { videoId: ID.captions9, format: 'json', limit: 3 }), answer('done')],
    });
    const result = await generateText({
      model,
      tools,
      prompt: 'Read the transcript',
      stopWhen: isStepCount(3),
    });
    expect(result.text).toBe('done');
    const [first] = result.steps[0]!.toolResults;
    expect(first).toMatchObject({ toolName: 'get_transcript', input: { videoId: ID.captions9, format: 'json' } });
    const output = first!.output as { status: string; segments: unknown[]; segmentCount: number; lang: string };
    expect(output).toMatchObject({ status: 'succeeded', segmentCount: STYLED_SEGMENTS.count, creditsCharged: 2 });
    expect(output.segments).toEqual([STYLED_SEGMENTS.first, expect.anything(), expect.anything()]);
    // The model's second call carries the tool's result, as the SDK passes it back.
    const second = JSON.stringify(model.doGenerateCalls[1]!.prompt);
    expect(second).toContain(STYLED_SEGMENTS.first.text);
    expect(await balanceOf(h.s, key)).toBe(8);
  });

  it('AI SDK: the service’s refusal reaches the model as the tool’s error', async () => {
    const { key } = await h.s.newKey({ credits: 0 });
    const model = new MockLanguageModelV4({
      doGenerate: [toolCall('get_video_info', { videoId: ID.nonexistent }), answer('no such video')],
    });
    const result = await generateText({
      model,
      tools: subtextTools({ url: h.s.url, key }),
      prompt: 'x',
      stopWhen: isStepCount(3),
    });
    const error = result.steps[0]!.content.find((c) => c.type === 'tool-error');
    expect(error).toMatchObject({ toolName: 'get_video_info' });
    expect(String((error as { error: unknown }).error)).toMatch(/not exist|not found|removed|private/i);
  });

  it('LangChain: SubtextLoader gives one Document per video with the YouTube loader’s metadata', async () => {
    const { key } = await h.s.newKey({ credits: 10 });
    const info = await (
      await fetch(`${h.s.url}/api/v1/videos/${ID.captions9}`, { headers: { authorization: `Bearer ${key}` } })
    ).json();
    const docs = await new SubtextLoader({ url: h.s.url, key, videos: [ID.captions9] }).load();
    expect(docs).toHaveLength(1);
    const [doc] = docs;
    expect(doc!.metadata).toEqual({
      source: `https://www.youtube.com/watch?v=${ID.captions9}`,
      videoId: ID.captions9,
      title: info.title,
      author: info.channelName,
      publish_date: info.publishDate,
      length: info.duration,
      start_seconds: 0,
      end_seconds: info.duration,
      language: 'en',
    });
    const lines = doc!.pageContent.split('\n');
    expect(lines).toHaveLength(STYLED_SEGMENTS.count);
    expect(lines[0]).toBe(STYLED_SEGMENTS.first.text);
    expect(lines.at(-1)).toBe(STYLED_SEGMENTS.last.text);
    // The first test stored this transcript: reading it again is free.
    expect(await balanceOf(h.s, key)).toBe(10);
  });

  it('LangChain: with chapters, one Document per chapter, spans and text in order, nothing lost', async () => {
    const { key } = await h.s.newKey({ credits: 10 });
    const info = await (
      await fetch(`${h.s.url}/api/v1/videos/${ID.manualOnlyDe}`, { headers: { authorization: `Bearer ${key}` } })
    ).json();
    const whole = await new SubtextLoader({ url: h.s.url, key, videos: [ID.manualOnlyDe] }).load();
    const docs = await new SubtextLoader({ url: h.s.url, key, videos: [ID.manualOnlyDe], chapters: true }).load();
    const chapters: { title: string; start: number }[] = info.chapters;
    expect(chapters.length).toBeGreaterThan(1);
    expect(docs.map((d) => [d.metadata.chapter, d.metadata.start_seconds])).toEqual(
      chapters.map((c) => [c.title, c.start]),
    );
    for (const [i, d] of docs.entries()) expect(d.metadata.end_seconds).toBe(chapters[i + 1]?.start ?? info.duration);
    expect(
      docs
        .map((d) => d.pageContent)
        .filter(Boolean)
        .join('\n'),
    ).toBe(whole[0]!.pageContent);
  });

  it('LangChain: the same operations as tools; invoking one answers the service’s JSON', async () => {
    const { key } = await h.s.newKey({ credits: 10 });
    const tools = subtextLangChainTools({ url: h.s.url, key });
    expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(subtextTools({ url: h.s.url, key })).sort());
    const info = tools.find((t) => t.name === 'get_video_info')!;
    const answered = JSON.parse(await info.invoke({ videoId: ID.captions9 }));
    expect(answered).toMatchObject({ videoId: ID.captions9, title: expect.any(String) });
    await expect(info.invoke({ videoId: '' })).rejects.toThrow();
  });
});
