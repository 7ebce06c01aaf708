import { z } from 'zod';
import { ARTICLE_CATEGORIES } from './categories.ts';

export const ArticleCategory = z.enum(ARTICLE_CATEGORIES).describe(`One of: ${ARTICLE_CATEGORIES.join(', ')}`);
export type ArticleCategory = z.infer<typeof ArticleCategory>;

/** What each length means; the generator and the extractive summarizer both follow it. */
export const ARTICLE_LENGTHS = {
  short: { summaryWords: 150, minSections: 3, maxSections: 4, keyPoints: 3 },
  medium: { summaryWords: 400, minSections: 4, maxSections: 8, keyPoints: 5 },
  /** About one section per 5 minutes. A video's chapters are the sections of an article of any length. */
  long: { summaryWords: 1000, minSections: 4, maxSections: 60, keyPoints: 8 },
} as const;

export const ArticleLength = z
  .enum(['short', 'medium', 'long'])
  .default('medium')
  .describe(
    'short: ~150-word summary, 3-4 sections; medium: ~400 words, 4-8 sections; ' +
      'long: ~1,000+ words, one section per chapter or about every 5 minutes',
  );
export type ArticleLength = z.infer<typeof ArticleLength>;

export const ArticleSection = z.object({
  heading: z.string(),
  start: z.number().describe('Seconds from the start of the video'),
  end: z.number().describe('Seconds; end >= start, within the video'),
  text: z.string(),
});
export type ArticleSection = z.infer<typeof ArticleSection>;

const ArticleGenerator = z.object({
  kind: z.enum(['llm', 'extractive']),
  model: z.string().optional().describe('The LLM model, for kind "llm"'),
});

export const Article = z.object({
  id: z.string().describe('art_...'),
  videoId: z.string(),
  lang: z.string().describe('Language the article is written in (BCP 47)'),
  length: ArticleLength,
  sourceLang: z.string().describe('Language of the transcript it was made from'),
  title: z.string(),
  summary: z.string(),
  sections: z.array(ArticleSection).describe('In order, each within [0, duration]'),
  keyPoints: z.array(z.string()),
  tags: z.array(z.string()),
  category: ArticleCategory,
  generator: ArticleGenerator,
  createdAt: z.string().describe('ISO 8601 date-time'),
});
export type Article = z.infer<typeof Article>;

/** What a generator produces; the caller adds id and createdAt when storing it. */
export const ArticleDraft = Article.omit({ id: true, createdAt: true });
export type ArticleDraft = z.infer<typeof ArticleDraft>;
