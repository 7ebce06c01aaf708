// Issue 33 part 3: @subtext/client/ai-sdk and /langchain on the real `ai` and `@langchain/core`, against a live
// service replaying recorded YouTube answers. The AI SDK's own test model calls the tools and reads their results;
// the loader’s documents are checked field by field; a second harness (a loopback model, recorded browse pages, a
// generated clip) lets the test model call every one of the seven tools.
import { generateText, isStepCount } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subtextTools } from '../../clients/typescript/src/ai-sdk.ts';
import { SubtextLoader, subtextLangChainTools } from '../../clients/typescript/src/langchain.ts';
import { modelReply } from '../llm/llm-fixtures.ts';
import { type FakeAnthropic, startFakeAnthropic } from '../support/fake-anthropic.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { startLoopbackYoutube } from '../support/loopback-youtube.ts';
import { startTestServer } from '../support/test-server.ts';
import { startVideoServer, type VideoServer } from '../support/video-server.ts';
import { cachedTestVideo } from '../support/make-video.ts';
import { BROWSE, replayBrowse } from '../support/youtube-browse-replay.ts';
import {
  balanceOf,
  ID,
  recordedRoutes,
  STYLED_SEGMENTS,
  startRecordedHarness,
  type Harness,
} from '../transcripts/recorded-youtube.ts';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};
const toolCalls = (calls: [toolName: string, input: unknown][]) => ({
  content: calls.map(([toolName, input]) => ({
    type: 'tool-call' as const,
    toolCallId: `call-${toolName}`,
    toolName,
    input: JSON.stringify(input),
  })),
  finishReason: { unified: 'tool-calls' as const, raw: 'tool_use' },
  usage,
  warnings: [],
});
const toolCall = (toolName: string, input: unknown) => toolCalls([[toolName, input]]);
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

describe.skipIf(!sharedAvailable)('every AI SDK tool, called by the test model', () => {
  let full: Harness;
  let fake: FakeAnthropic;
  let media: VideoServer;
  beforeAll(async () => {
    fake = await startFakeAnthropic(modelReply);
    media = await startVideoServer({
      '/clip.mp4': { file: await cachedTestVideo({ seconds: 4 }), contentType: 'video/mp4' },
    });
    const yt = await startLoopbackYoutube({
      ...recordedRoutes(),
      other: (url, body) => replayBrowse(url, body) ?? { status: 404, body: '' },
    });
    const s = await startTestServer({
      YOUTUBE_BASE_URL: yt.origin,
      MEDIA_ALLOWED_NETWORKS: '127.0.0.1',
      ANTHROPIC_API_KEY: 'test',
      ANTHROPIC_BASE_URL: fake.url,
    });
    full = {
      s,
      yt,
      async close() {
        await s.close();
        await yt.close();
      },
    };
  });
  afterAll(async () => {
    await full?.close();
    await Promise.all([fake?.close(), media?.close()]);
  });

  it('translate, summarize, list a search, capture frames, then search the articles: each answers the model', async () => {
    const { key } = await full.s.newKey({ credits: 100 });
    const rest = (path: string, body: unknown) =>
      fetch(`${full.s.url}/api/v1${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json());
    // The clip's media id (frames take a YouTube or media-... id), and the transcript the translation reads.
    const { videoId: clip } = await rest('/frames', { url: media.url('/clip.mp4'), t: 0.5 });
    await rest('/subtitles', { videoId: ID.manualOnlyDe, lang: 'de' });
    const model = new MockLanguageModelV4({
      doGenerate: [
        toolCalls([
          ['translate_transcript', { videoId: ID.manualOnlyDe, sourceLang: 'de', targetLang: 'en' }],
          ['summarize_video', { videoId: ID.manualOnlyDe, lang: 'en', length: 'short' }],
          ['list_videos', { kind: 'search', target: BROWSE.search.query }],
          ['capture_frames', { videoId: clip, timestamps: [0.5, 2.5], width: 160 }],
        ]),
        toolCall('search_articles', { query: 'Generated' }),
        answer('done'),
      ],
    });
    const result = await generateText({
      model,
      tools: subtextTools({ url: full.s.url, key }),
      prompt: 'x',
      stopWhen: isStepCount(4),
    });
    expect(result.text).toBe('done');
    const outputs = Object.fromEntries(
      result.steps.flatMap((step) => step.toolResults.map((r) => [r.toolName, r.output as Record<string, any>])),
    );
    expect(result.steps.flatMap((step) => step.content.filter((c) => c.type === 'tool-error'))).toEqual([]);
    expect(outputs.translate_transcript!.translation.segments[0]).toEqual({
      start: 0.207,
      end: 1.976,
      text: 'FR Haooo! HimeHina here!',
    });
    const article = outputs.summarize_video!.article;
    expect(article).toMatchObject({ videoId: ID.manualOnlyDe, lang: 'en' });
    expect(outputs.list_videos!.items).toHaveLength(BROWSE.search.recordedPages[0]);
    expect(outputs.capture_frames!.frames.map((f: { t: number }) => f.t)).toEqual([0.5, 2.5]);
    expect(outputs.search_articles!.results.map((a: { id: string }) => a.id)).toContain(article.id);
    // The model's next call carries what the tools answered.
    expect(JSON.stringify(model.doGenerateCalls[1]!.prompt)).toContain('FR Haooo! HimeHina here!');
  }, 60_000);
});
