import type { Article, ArticleCategory } from './schemas.ts';

export interface ArticleHit {
  id: string;
  videoId: string;
  title: string;
  summary: string;
  lang: string;
  category: ArticleCategory;
  tags: string[];
  createdAt: string;
  /** Highlighted excerpt around the match, when the backend has one. */
  snippet?: string;
}

export interface ArticleSearchQuery {
  /** Full-text query; absent or blank lists the newest first. */
  query?: string;
  category?: ArticleCategory;
  lang?: string;
  /** 1-based. */
  page: number;
  limit: number;
}

export interface ArticleSearchResult {
  total: number;
  /** False when the backend stopped counting: `total` is then a lower bound. Absent means exact. */
  totalExact?: boolean;
  page: number;
  limit: number;
  results: ArticleHit[];
}

/** What a bulk upsert did: failures are per article, the rest were indexed. */
export interface BulkIndexResult {
  indexed: number;
  failed: { id: string; error: string }[];
}

/** Full-text search over articles. Implementations: Typesense (src/infra/search) and Postgres. */
export interface ArticleSearch {
  /** Adds or replaces the article (by id). */
  index(article: Article): Promise<void>;
  /**
   * Adds or replaces many articles in one request (rebuilding an external index). Absent on a backend for which
   * storing an article is indexing it (Postgres): there is nothing to rebuild.
   */
  indexMany?(articles: Article[]): Promise<BulkIndexResult>;
  search(query: ArticleSearchQuery): Promise<ArticleSearchResult>;
}
