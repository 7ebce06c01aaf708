import { describe, expect, it } from 'vitest';
import { hourlyPrice, pricedDuration } from '../../src/domain/pricing/prices.ts';
import { normalizeLang, sameLang } from '../../src/domain/translations/normalize-lang.ts';

describe('hourlyPrice', () => {
  it.each([
    [0, 1],
    [-5, 1],
    [Number.NaN, 1],
    [1, 1],
    [59 * 60, 1],
    [3600, 1],
    [3600.4, 1],
    [3601, 2],
    [61 * 60, 2],
    [3 * 3600, 3],
    [3 * 3600 + 1, 4],
  ])('%s s -> %i credits', (seconds, credits) => {
    expect(hourlyPrice(seconds)).toBe(credits);
  });

  it('uses the video duration, else the transcript’s (live streams report 0)', () => {
    expect(pricedDuration(4000, 100)).toBe(4000);
    expect(pricedDuration(0, 3700)).toBe(3700);
    expect(pricedDuration(null, 3700)).toBe(3700);
  });
});

describe('normalizeLang', () => {
  it.each([
    ['EN', 'en'],
    ['pt-br', 'pt-BR'],
    ['zh-hant-tw', 'zh-Hant-TW'],
    ['es-419', 'es-419'],
    ['iw', 'iw'],
    ['en_gb', 'en-GB'],
  ])('%s -> %s', (input, out) => expect(normalizeLang(input)).toBe(out));

  it('compares case-insensitively', () => {
    expect(sameLang('EN-gb', 'en-GB')).toBe(true);
    expect(sameLang('en', 'en-GB')).toBe(false);
  });
});
