import { describe, expect, it, vi } from 'vitest';
import {
  arrayItemBounds,
  parseStored,
  readStored,
  STORED,
  carriedPart,
  storedPage,
  storedPartOf,
  withStoredPart,
  withValueAt,
} from '../../src/domain/stored-json.ts';

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

  it('make an answer of the full type whose field parses the stored text once, on first read', () => {
    const json = utf8(JSON.stringify(items));
    const part = storedPage(['segments'], json, arrayItemBounds(json), 1, 3);
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const answer = withStoredPart<{ videoId: string; segments: unknown[] }>({ videoId: 'abc' }, part);
      expect(storedPartOf(answer)).toBe(part);
      // Validated with the field as a placeholder, the field is never read: nothing parsed.
      const validated = withValueAt(answer, part.path, 'placeholder');
      expect(validated).toEqual({ videoId: 'abc', segments: 'placeholder' });
      expect(parse).not.toHaveBeenCalled();
      expect(answer.segments).toEqual(items.slice(1, 3));
      expect(answer.segments).toBe(answer.segments);
      expect(JSON.parse(JSON.stringify(answer))).toEqual({ videoId: 'abc', segments: items.slice(1, 3) });
      expect(parse).toHaveBeenCalledTimes(2); // the field once, then the check's own
    } finally {
      parse.mockRestore();
    }
  });

  it('nest the field along the part path, leaving the answer it was made from as it was', () => {
    const json = utf8(JSON.stringify(items));
    const part = storedPage(['translation', 'segments'], json, arrayItemBounds(json), 0, 3);
    const translation = { targetLang: 'fr' };
    const made = { status: 'succeeded', translation };
    const answer = withStoredPart<{ status: string; translation: { targetLang: string; segments: unknown[] } }>(
      made,
      part,
    );
    expect(answer.translation).toEqual({ targetLang: 'fr', segments: items });
    expect(made).toEqual({ status: 'succeeded', translation: { targetLang: 'fr' } });
  });

  it('carry the part only while the field is the stored one: a copy that sets it anew answers its own values', () => {
    const json = utf8(JSON.stringify(items));
    const part = storedPage(['segments'], json, arrayItemBounds(json), 0, 3);
    const answer = withStoredPart<{ videoId: string; segments: unknown[] }>({ videoId: 'abc' }, part);
    expect(carriedPart(answer)).toBe(part);
    expect(carriedPart({ ...answer, videoId: 'def' })).toBeUndefined(); // the spread read the field into place
    const replaced = { ...answer, segments: [items[0]] };
    expect(storedPartOf(replaced)).toBe(part);
    expect(carriedPart(replaced)).toBeUndefined();
    const nested = withStoredPart<{ t: { segments: unknown[] } }>({ t: {} }, { ...part, path: ['t', 'segments'] });
    expect(carriedPart(nested)).toBeDefined();
    expect(carriedPart({ ...nested, t: { segments: [] } })).toBeUndefined();
  });

  it('read a validated answer carrying a part back as plain values', () => {
    const json = utf8(JSON.stringify(items));
    const answer = { videoId: 'abc', [STORED]: storedPage(['segments'], json, arrayItemBounds(json), 1, 2) };
    const read = readStored(answer);
    expect(read).toEqual({ videoId: 'abc', segments: [items[1]] });
    expect(Object.getOwnPropertySymbols(read)).toEqual([]);
  });
});
