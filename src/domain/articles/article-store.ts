import type { Article, ArticleDraft, ArticleLength } from './schemas.ts';

/** Generated articles, one per (video, lang, length, sourceLang); implemented in src/infra/postgres/articles.ts. */
export interface ArticleStore {
  /** Stores the variant, or replaces its content keeping its id. */
  store(draft: ArticleDraft, opts?: { now?: Date }): Promise<Article>;
  read(id: string): Promise<Article | null>;
  /** Up to `limit` articles with ids after `afterId`, in id order. */
  listAfter(afterId: string | null, limit: number): Promise<Article[]>;
  /**
   * A stored article for (video, lang, length), from `sourceLang`'s transcript when given (exact or base language),
   * else from any transcript, the one in `lang` first. `llmOnly` skips extractive ones (an LLM can do better now).
   */
  find(q: {
    videoId: string;
    lang: string;
    length: ArticleLength;
    sourceLang?: string | null;
    llmOnly: boolean;
  }): Promise<Article | null>;
  /** The id of exactly this variant, if stored. */
  idOfVariant(v: { videoId: string; lang: string; length: string; sourceLang: string }): Promise<string | null>;
  count(): Promise<number>;
}
