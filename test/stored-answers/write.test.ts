import { describe, expect, it } from 'vitest';
import {
  arrayItemBounds,
  openStoredParts,
  placeStoredPart,
  STORED_PLACEHOLDER,
  storedPage,
} from '../../src/domain/stored-json.ts';
import { writeStored } from '../../src/bridges/stored-answers/write.ts';

const segments = [
  { start: 0, end: 1, text: `looks like a placeholder: "${STORED_PLACEHOLDER.slice(1)}0" and "segments":[]` },
  { start: 1, end: 2, text: 'ünïcödé' },
];
const json = new TextEncoder().encode(JSON.stringify(segments));
const part = storedPage(['segments'], json, arrayItemBounds(json), 0, 2);
const text = (b: string | Uint8Array) => (typeof b === 'string' ? b : new TextDecoder().decode(b));

describe('the writer of stored answers', () => {
  it('writes the stored text where the answer holds its placeholder, in any envelope', () => {
    const out = {};
    const parts = openStoredParts(out);
    const answer = { videoId: 'abc', segments: placeStoredPart(out, part), segmentCount: 2 };
    const whole = { ...answer, segments };
    expect(text(writeStored(JSON.stringify(answer), parts))).toBe(JSON.stringify(whole));
    const trpc = JSON.stringify({ result: { data: answer } });
    expect(text(writeStored(trpc, parts))).toBe(JSON.stringify({ result: { data: whole } }));
  });

  it('fills each placeholder with the part it names, whatever order the envelope serializes them in', () => {
    const out = {};
    const parts = openStoredParts(out);
    const page = storedPage(['segments'], json, arrayItemBounds(json), 1, 2);
    const first = placeStoredPart(out, part);
    const second = placeStoredPart(out, page);
    const batch = [{ segments: second }, { other: true }, { segments: first }];
    expect(JSON.parse(text(writeStored(JSON.stringify(batch), parts)))).toEqual([
      { segments: segments.slice(1) },
      { other: true },
      { segments },
    ]);
    expect(writeStored('{"a":1}', parts)).toBe('{"a":1}');
  });

  it('has no place for a part when no writer opened the request: the answer is read as values', () => {
    expect(placeStoredPart({}, part)).toBeUndefined();
  });
});
