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

/**
 * Where a page ended, in the backend's own terms (e.g. a tier and the date and id of its last article): plain JSON the
 * domain carries inside an opaque cursor and hands back unread. It comes back from callers, so the backend checks its
 * shape and refuses a bad one with INVALID_REQUEST.
 */
export type SearchPosition = Record<string, unknown>;

export interface ArticleSearchQuery {
  /** Full-text query; absent or blank lists the newest first. */
  query?: string;
  category?: ArticleCategory;
  lang?: string;
  /** 1-based; ignored when `after` is given. */
  page: number;
  limit: number;
  /** Continue after this position (a previous result's `next`) instead of skipping to `page`. */
  after?: SearchPosition;
  /** The count of the first page, passed back with `after`: the backend need not count again. */
  counted?: { total: number; exact: boolean };
}

interface ArticleSearchResult {
  total: number;
  /** False when the backend stopped counting: `total` is then a lower bound. Absent means exact. */
  totalExact?: boolean;
  page: number;
  limit: number;
  results: ArticleHit[];
  /** Where this page ended, to continue from; null or absent when nothing follows. */
  next?: SearchPosition | null;
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
