import type { Sql } from '../../../db/client.ts';
import type { Config } from '../../config.ts';
import type { ArticleSearch } from '../../domain/articles/search-port.ts';
import { createPgArticleSearch } from './pg-article-search.ts';
import { createTypesenseSearch } from './typesense-search.ts';

/** The Typesense collection articles live in. */
export const ARTICLE_COLLECTION = 'articles';

/** The configured search backend: the service's (build-deps.ts) and the CLI's `search reindex` are the same one. */
export function createArticleSearch(config: Config, sql: Sql): ArticleSearch {
  return config.SEARCH_BACKEND === 'typesense'
    ? createTypesenseSearch({ urls: [config.TYPESENSE_URL!], apiKey: config.TYPESENSE_API_KEY!, collection: ARTICLE_COLLECTION })
    : createPgArticleSearch(sql);
}
