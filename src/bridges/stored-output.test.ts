import { describe, expect, it } from 'vitest';
import { arrayItemBounds, STORED, storedPage } from '../domain/stored-json.ts';
import { STORED_PLACEHOLDER } from '../router/stored-output.ts';
import { storedPartsOf, writeStored } from './stored-output.ts';

const segments = [
  { start: 0, end: 1, text: `looks like a placeholder: "${STORED_PLACEHOLDER.slice(1)}" and "segments":[]` },
  { start: 1, end: 2, text: 'ünïcödé' },
];
const json = new TextEncoder().encode(JSON.stringify(segments));
const part = storedPage(['segments'], json, arrayItemBounds(json), 0, 2);
const meta = { videoId: 'abc', segments: STORED_PLACEHOLDER, segmentCount: 2 };
const answer = { ...meta, [STORED]: part };
const text = (b: string | Uint8Array) => (typeof b === 'string' ? b : new TextDecoder().decode(b));

describe('the output step', () => {
  it('writes the stored text where the answer holds its placeholder, in any envelope', () => {
    const whole = { ...meta, segments };
    expect(text(writeStored(JSON.stringify(answer), [part]))).toBe(JSON.stringify(whole));
    const trpc = JSON.stringify({ result: { data: answer } });
    expect(JSON.parse(text(writeStored(trpc, [part])))).toEqual({ result: { data: whole } });
  });

  it('fills a batch’s answers in order, and leaves answers without a part as they are', () => {
    const page = storedPage(['segments'], json, arrayItemBounds(json), 1, 2);
    const batch = [answer, { other: true }, { ...answer, [STORED]: page }];
    const parts = storedPartsOf(batch);
    expect(parts).toEqual([part, page]);
    expect(JSON.parse(text(writeStored(JSON.stringify(batch), parts)))).toEqual([
      { ...meta, segments },
      { other: true },
      { ...meta, segments: segments.slice(1) },
    ]);
    expect(writeStored('{"a":1}', [])).toBe('{"a":1}');
  });
});
