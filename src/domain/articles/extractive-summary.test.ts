import { describe, expect, it } from 'vitest';
import { extractiveArticle } from './extractive-summary.ts';
import { ArticleDraft } from './schemas.ts';

const TOPICS = [
  'the recipe needs flour sugar butter and eggs before you bake the cake in the kitchen oven',
  'bake the dough slowly until the crust turns golden and the kitchen smells of fresh bread',
  'serve the dish warm with a simple sauce and taste the flavor of every ingredient.',
];

/** `seconds` of speech, one cue per 3 s, cycling through a few sentences with a numbered twist. */
function transcript(seconds: number) {
  return Array.from({ length: Math.floor(seconds / 3) }, (_, k) => ({
    start: k * 3,
    end: k * 3 + 2.9,
    text: `${TOPICS[k % TOPICS.length]} step${k % 40}`,
  }));
}

function checkSections(a: ArticleDraft, duration: number) {
  expect(a.sections.length).toBeGreaterThan(0);
  let prev = 0;
  for (const s of a.sections) {
    expect(s.start).toBeGreaterThanOrEqual(prev);
    expect(s.end).toBeGreaterThanOrEqual(s.start);
    expect(s.end).toBeLessThanOrEqual(duration);
    prev = s.start;
  }
}

describe('extractiveArticle', () => {
  it.each(['short', 'medium', 'long'] as const)('%s: sections in order and within the video', (length) => {
    const a = extractiveArticle({
      videoId: 'vid12345678',
      segments: transcript(1800),
      durationSeconds: 1800,
      title: 'Baking bread at home',
      length,
      sourceLang: 'en',
    });
    expect(ArticleDraft.parse(a)).toEqual(a);
    checkSections(a, 1800);
    const n = a.sections.length;
    if (length === 'short') expect([3, 4]).toContain(n);
    if (length === 'medium') expect([4, 5, 6, 7, 8]).toContain(n);
    if (length === 'long') expect(n).toBe(6);
    expect(a.generator).toEqual({ kind: 'extractive' });
    expect(a.title).toBe('Baking bread at home');
    expect(a.category).toBe('food');
    expect(a.tags).toContain('kitchen');
    expect(a.summary.length).toBeGreaterThan(50);
    expect(a.keyPoints.length).toBeGreaterThan(0);
  });

  it('uses chapters when given', () => {
    const chapters = [
      { title: 'Intro', start: 0 },
      { title: 'Dough', start: 300 },
      { title: 'Baking', start: 900 },
    ];
    const a = extractiveArticle({
      videoId: 'v',
      segments: transcript(1200),
      durationSeconds: 1200,
      title: 'x',
      length: 'medium',
      sourceLang: 'en',
      chapters,
    });
    expect(a.sections.map((s) => [s.heading, s.start, s.end])).toEqual([
      ['Intro', 0, 300],
      ['Dough', 300, 900],
      ['Baking', 900, 1200],
    ]);
  });

  it('a short article has a section per chapter too, however many, saying less under each', () => {
    const chapters = Array.from({ length: 10 }, (_, k) => ({ title: `Part ${k}`, start: k * 120 }));
    const a = extractiveArticle({
      videoId: 'v',
      segments: transcript(1200),
      durationSeconds: 1200,
      title: 'x',
      length: 'short',
      sourceLang: 'en',
      chapters,
    });
    expect(a.sections.map((s) => s.heading)).toEqual(chapters.map((c) => c.title));
    expect(a.sections.map((s) => s.start)).toEqual(chapters.map((c) => c.start));
  });

  it('handles 3 hours of segments and an unknown duration', () => {
    const segs = transcript(3 * 3600);
    const a = extractiveArticle({
      videoId: 'v',
      segments: segs,
      durationSeconds: 0,
      title: 'Long',
      length: 'long',
      sourceLang: 'en',
    });
    expect(a.sections).toHaveLength(36);
    checkSections(a, segs.at(-1)!.end);
  });

  it('falls back to "other" and copes with an empty transcript', () => {
    const a = extractiveArticle({
      videoId: 'v',
      segments: [],
      durationSeconds: 60,
      title: '',
      length: 'short',
      sourceLang: 'en',
    });
    expect(a.category).toBe('other');
    expect(a.title).toBe('Untitled video');
    checkSections(a, 60);
  });
});
