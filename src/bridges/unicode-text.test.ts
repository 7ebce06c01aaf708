import { describe, expect, it } from 'vitest';
import { decodeUtf8, escapesLoneSurrogate, hasLoneSurrogate } from './unicode-text.ts';

describe('escapesLoneSurrogate', () => {
  it.each([
    ['"\\ud800"', true],
    ['"\\udfff"', true],
    ['"\\uD800x"', true],
    ['"\\ud800\\u0041"', true],
    ['"\\ud83d\\ude00"', false],
    ['"\\\\ud800"', false],
    ['"\\\\\\ud800"', true],
    ['"\\n\\t\\"\\u0041"', false],
    ['"\\u12"', false],
    ['"plain"', false],
    ['"\\ud800', true],
  ])('%s: %s', (text, lone) => {
    expect(escapesLoneSurrogate(text)).toBe(lone);
  });
  it('agrees with JSON.parse on what it makes', () => {
    for (const text of ['"\\ud800"', '"\\ud83d\\ude00"', '"\\\\ud800"', '"a\\udc00b"'])
      expect(escapesLoneSurrogate(text), text).toBe(hasLoneSurrogate(JSON.parse(text)));
  });
});

describe('decodeUtf8', () => {
  it('refuses stray bytes, overlong forms and encoded surrogates', () => {
    expect(decodeUtf8(new Uint8Array([0xff]))).toBeUndefined();
    expect(decodeUtf8(new Uint8Array([0xc0, 0xaf]))).toBeUndefined();
    expect(decodeUtf8(new Uint8Array([0xed, 0xa0, 0x80]))).toBeUndefined();
    expect(decodeUtf8(Buffer.from('café 😀'))).toBe('café 😀');
  });
});
