import type { Sql } from '../../../db/client.ts';
import type { Config } from '../../config.ts';
import type { ArticleSearch } from '../../domain/articles/ports.ts';
import { createPgArticleSearch } from './pg-article-search.ts';

/** The Typesense collection articles live in. */
const ARTICLE_COLLECTION = 'articles';

/**
 * The configured search backend: the service's (build-deps.ts) and the CLI's `search reindex` are the same one. The
 * Typesense client is loaded only when it is chosen.
 */
export async function createArticleSearch(config: Config, sql: Sql): Promise<ArticleSearch> {
  if (config.SEARCH_BACKEND !== 'typesense') return createPgArticleSearch(sql);
  const { createTypesenseSearch } = await import('./typesense-search.ts');
  return createTypesenseSearch({
    urls: [config.TYPESENSE_URL!],
    apiKey: config.TYPESENSE_API_KEY!,
    collection: ARTICLE_COLLECTION,
  });
}
