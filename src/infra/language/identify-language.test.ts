// The language identifier on caption text: eld's real tables (no stub), sampled and thresholded as the extraction job
// uses it. The paragraphs are written here (a detector's input, not a YouTube answer); the recorded caption body is in
// test/transcripts/spoken-language.test.ts.
import { describe, expect, it } from 'vitest';
import { createLanguageIdentifier, MIN_LETTERS, sampleText } from './identify-language.ts';

const ENGLISH =
  'Today I want to show you how to bake a really good loaf of bread at home. First we need flour, water, salt and a ' +
  'little bit of yeast. Then we knead the dough for at least ten minutes, until it feels smooth and elastic, and we ' +
  'let it rest for about an hour in a warm place before we shape it.';
const GERMAN =
  'Heute möchte ich euch zeigen, wie man zu Hause ein richtig gutes Brot backt. Zuerst brauchen wir Mehl, Wasser, ' +
  'Salz und ein bisschen Hefe. Dann kneten wir den Teig mindestens zehn Minuten lang, bis er sich glatt und elastisch ' +
  'anfühlt, und lassen ihn etwa eine Stunde an einem warmen Ort ruhen.';
const FRENCH =
  'Aujourd’hui je veux vous montrer comment faire un très bon pain à la maison. Il nous faut d’abord de la farine, de ' +
  'l’eau, du sel et un peu de levure. Ensuite on pétrit la pâte pendant au moins dix minutes, jusqu’à ce qu’elle soit ' +
  'lisse et élastique, puis on la laisse reposer une heure dans un endroit chaud.';
/** Caption cues: a sentence cut into short segments, as auto-captions are. */
const cues = (text: string) => text.match(/(\S+\s*){1,6}/g) ?? [];

describe('identifying the language of caption text', () => {
  const identifier = createLanguageIdentifier();

  it.each([
    ['en', ENGLISH, 'en'],
    ['de', GERMAN, 'de'],
    ['fr', FRENCH, 'fr'],
  ])('tells %s text apart, whatever the label says', async (_name, text, lang) => {
    expect(await identifier.identify(cues(text), 'de')).toBe(lang);
    expect(await identifier.identify(cues(text), 'en')).toBe(lang);
  });

  it('knows YouTube’s retired codes as labels (iw is Hebrew, which eld calls he)', async () => {
    expect(await identifier.identify(cues(ENGLISH), 'iw')).toBe('en');
  });

  it('says nothing below the minimum of letters', async () => {
    const short = ENGLISH.slice(0, MIN_LETTERS - 20);
    expect(await identifier.identify(cues(short), 'en')).toBeNull();
  });

  it('says nothing about sound annotations, however many', async () => {
    expect(await identifier.identify(Array(500).fill('[Music]'), 'de')).toBeNull();
    expect(await identifier.identify(Array(500).fill('♪ (Applause) ♪'), 'de')).toBeNull();
  });

  it('never judges a label in a language it does not know (Swahili): any answer would look like a mismatch', async () => {
    expect(await identifier.identify(cues(ENGLISH), 'sw')).toBeNull();
  });

  it('says nothing when no language leads clearly (half English, half German)', async () => {
    const mixed = cues(ENGLISH).flatMap((c, i) => [c, cues(GERMAN)[i] ?? '']);
    const verdict = await identifier.identify(mixed, 'en');
    // eld may still lean one way on a mix; what it must never do is name a third language.
    expect([null, 'en', 'de']).toContain(verdict);
  });

  it('loads the detector only for text long enough to judge', async () => {
    let loads = 0;
    const lazy = createLanguageIdentifier(async () => {
      loads++;
      return (await import('eld/extrasmall')).eld;
    });
    expect(await lazy.identify(['hello'], 'en')).toBeNull();
    expect(loads).toBe(0);
    await lazy.identify(cues(ENGLISH), 'en');
    await lazy.identify(cues(GERMAN), 'en');
    expect(loads).toBe(1);
  });
});

describe('the sample handed to the detector', () => {
  it('is at most 2,000 characters, taken across the whole transcript', () => {
    const texts = Array.from({ length: 10_000 }, (_, i) => `segment ${i} words here`);
    const sample = sampleText(texts);
    expect(sample.length).toBeLessThanOrEqual(2_000);
    expect(sample).toContain('segment 0 ');
    // Evenly spaced: it reaches far past the first 2,000 characters' segments (about 90 of them).
    const last = Math.max(...[...sample.matchAll(/segment (\d+)/g)].map((m) => Number(m[1])));
    expect(last).toBeGreaterThan(5_000);
  });

  it('drops bracketed annotations, music notes and URLs', () => {
    expect(sampleText(['[Music] hello (laughs) ♪ there https://example.com/x'])).toBe('hello there ');
  });
});
