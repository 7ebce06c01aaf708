// Plain data, no zod: the website's search form imports it too.
/**
 * Fixed category list (YouTube's own categories, merged and extended with finance/howto/food). `other` is the
 * fallback when nothing fits. Changing it changes the public contract: add, never rename.
 */
export const ARTICLE_CATEGORIES = [
  'education',
  'technology',
  'science',
  'business',
  'finance',
  'health',
  'entertainment',
  'gaming',
  'music',
  'news',
  'politics',
  'sports',
  'travel',
  'food',
  'lifestyle',
  'howto',
  'other',
] as const;
