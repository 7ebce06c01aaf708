import { describe, expect, it } from 'vitest';
import { createSplicedAnswers, spliceSegments } from './stored-segments.ts';

const head = '{"videoId":"abc","segments":[],"segmentCount":2}';
const utf8 = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);
const segmentsText = JSON.stringify([
  { start: 0, end: 1, text: 'a "quoted" segments:[] word, naïve ✓' },
  { start: 1, end: 2, text: 'b' },
]);
const segments = utf8(segmentsText);

describe('spliced answers', () => {
  it('fill the answer’s own empty segments and parse back to the whole answer', () => {
    const answer = JSON.parse(text(spliceSegments(head, segments)));
    expect(answer).toEqual({ videoId: 'abc', segments: JSON.parse(segmentsText), segmentCount: 2 });
  });

  it('answer the same question with the same bytes, and a different segments text with new ones', () => {
    const spliced = createSplicedAnswers(1024 * 1024);
    const first = spliced.render(head, segments);
    expect(text(first)).toBe(text(spliceSegments(head, segments)));
    expect(spliced.render(head, segments)).toBe(first);
    const other = utf8(JSON.stringify([{ start: 0, end: 1, text: 'replaced' }]));
    const second = spliced.render(head, other);
    expect(second).not.toBe(first);
    expect(JSON.parse(new TextDecoder().decode(second)).segments).toEqual([{ start: 0, end: 1, text: 'replaced' }]);
  });

  it('keep no more than their byte budget, and still answer past it', () => {
    const spliced = createSplicedAnswers(200);
    const big = utf8(
      JSON.stringify(Array.from({ length: 20 }, (_, i) => ({ start: i, end: i + 1, text: 'x'.repeat(10) }))),
    );
    const a = spliced.render(head, big);
    expect(spliced.render(head, big)).not.toBe(a); // too big to keep: rendered again, same content
    expect(spliced.render(head, big)).toEqual(a);
  });
});
