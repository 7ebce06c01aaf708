import { describe, expect, it } from 'vitest';
import { arrayItemBounds, parseStored, readStored, STORED, storedPage } from './stored-json.ts';

const utf8 = (s: string) => new TextEncoder().encode(s);
const items = [
  { start: 0, end: 1, text: 'a "quoted" {brace} [bracket], comma' },
  { start: 1, end: 2, text: 'back\\slash \\" ünïcödé 日本語 🎬' },
  { start: 2, end: 3, text: '', nested: { list: [1, [2, { x: '}' }]] } },
];

describe('stored JSON arrays', () => {
  it('find each item of the text as stored, strings and nesting followed', () => {
    const json = utf8(JSON.stringify(items));
    const bounds = arrayItemBounds(json);
    expect(bounds.length).toBe(2 * items.length);
    for (let i = 0; i < items.length; i++)
      expect(JSON.parse(new TextDecoder().decode(json.subarray(bounds[2 * i]!, bounds[2 * i + 1]!)))).toEqual(items[i]);
    expect(arrayItemBounds(utf8('[ 1 , "two" ,null,[3]]')).length).toBe(8);
    expect(arrayItemBounds(utf8('[]')).length).toBe(0);
  });

  it('cut pages that read back as the slice of the values, without copying the whole text', () => {
    const json = utf8(JSON.stringify(items));
    const bounds = arrayItemBounds(json);
    const whole = storedPage(['segments'], json, bounds, 0, 3);
    expect(whole.json).toEqual([json]);
    for (const [from, to] of [
      [0, 1],
      [1, 3],
      [2, 3],
      [3, 3],
    ] as const)
      expect(parseStored(storedPage(['segments'], json, bounds, from, to))).toEqual(items.slice(from, to));
  });

  it('read an answer carrying a part back as plain values', () => {
    const json = utf8(JSON.stringify(items));
    const answer = { videoId: 'abc', [STORED]: storedPage(['segments'], json, arrayItemBounds(json), 1, 2) };
    const read = readStored<{ videoId: string; segments: unknown[] }, 'segments'>(answer);
    expect(read).toEqual({ videoId: 'abc', segments: [items[1]] });
    expect(Object.getOwnPropertySymbols(read)).toEqual([]);
  });
});
