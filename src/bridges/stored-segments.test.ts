import { describe, expect, it } from 'vitest';
import { createSplicedAnswers, spliceSegments } from './stored-segments.ts';

const head = '{"videoId":"abc","segments":[],"segmentCount":2}';
const segments = JSON.stringify([{ start: 0, end: 1, text: 'a "quoted" segments:[] word' }, { start: 1, end: 2, text: 'b' }]);

describe('spliced answers', () => {
  it('fill the answer’s own empty segments and parse back to the whole answer', () => {
    const answer = JSON.parse(spliceSegments(head, segments));
    expect(answer).toEqual({ videoId: 'abc', segments: JSON.parse(segments), segmentCount: 2 });
  });

  it('answer the same question with the same bytes, and a different segments text with new ones', () => {
    const spliced = createSplicedAnswers(1024 * 1024);
    const first = spliced.render(head, segments);
    expect(new TextDecoder().decode(first)).toBe(spliceSegments(head, segments));
    expect(spliced.render(head, segments)).toBe(first);
    const other = JSON.stringify([{ start: 0, end: 1, text: 'replaced' }]);
    const second = spliced.render(head, other);
    expect(second).not.toBe(first);
    expect(JSON.parse(new TextDecoder().decode(second)).segments).toEqual([{ start: 0, end: 1, text: 'replaced' }]);
  });

  it('keep no more than their byte budget, and still answer past it', () => {
    const spliced = createSplicedAnswers(200);
    const big = JSON.stringify(Array.from({ length: 20 }, (_, i) => ({ start: i, end: i + 1, text: 'x'.repeat(10) })));
    const a = spliced.render(head, big);
    expect(spliced.render(head, big)).not.toBe(a); // too big to keep: rendered again, same content
    expect(spliced.render(head, big)).toEqual(a);
  });
});
