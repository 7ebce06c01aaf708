import { describe, expect, it } from 'vitest';
import type { Segment } from '../domain/video/schemas.ts';
import { createStoredToolResults, spliceRendered } from './mcp-stored-results.ts';

const segments: Segment[] = [
  { start: 0, end: 1, text: 'a "quoted" "text":"" and "segments":[] – word' },
  { start: 1, end: 2, text: 'b' },
];
/** A stored transcript's page: one list stands for one cached transcript, whose bytes are the same object each time. */
const storedBytes = new WeakMap<Segment[], Uint8Array>();
const stored = (list: Segment[]) => {
  if (!storedBytes.has(list)) storedBytes.set(list, new TextEncoder().encode(JSON.stringify(list)));
  return { segmentsJson: storedBytes.get(list)!, segments: () => list.slice(0, 1) };
};
const answer = { videoId: 'abc', segments: [], segmentCount: 2 };
const textOf = (page: Segment[]) => `Transcript – ${page.map((s) => s.text).join('\n')}`;
/** What the SDK writes for a result carrying the placeholders. */
const sdkJson = (id: number | string) =>
  JSON.stringify({ result: { content: [{ type: 'text', text: '' }], structuredContent: answer }, jsonrpc: '2.0', id });

describe('stored tool results', () => {
  it('splice the rendered text and page into the SDK’s answer: the same JSON as serializing the whole result', () => {
    const results = createStoredToolResults(1024 * 1024);
    const rendered = results.render('get_video_subtitles', answer, stored(segments), textOf);
    const page = segments.slice(0, 1);
    const whole = JSON.stringify({
      result: { content: [{ type: 'text', text: textOf(page) }], structuredContent: { ...answer, segments: page } },
      jsonrpc: '2.0',
      id: 'x"text":""',
    });
    expect(new TextDecoder().decode(spliceRendered(sdkJson('x"text":""'), rendered))).toBe(whole);
  });

  it('render once per answer, again when the stored segments differ, and leave other answers alone', () => {
    const results = createStoredToolResults(1024 * 1024);
    const first = results.render('get_video_subtitles', answer, stored(segments), textOf);
    expect(results.render('get_video_subtitles', answer, stored(segments), textOf)).toBe(first);
    const replaced = results.render(
      'get_video_subtitles',
      answer,
      stored([{ start: 0, end: 1, text: 'replaced' }]),
      textOf,
    );
    expect(new TextDecoder().decode(replaced.segments)).toBe('"segments":[{"start":0,"end":1,"text":"replaced"}]');
    expect(spliceRendered('{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"no"}}', first)).toBeUndefined();
  });

  it('keep no more than their byte budget, and still answer past it', () => {
    const results = createStoredToolResults(100);
    const a = results.render('get_video_subtitles', answer, stored(segments), textOf);
    const b = results.render('get_video_subtitles', answer, stored(segments), textOf);
    expect(b).not.toBe(a);
    expect(b).toEqual(a);
  });
});
