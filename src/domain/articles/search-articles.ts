import { z } from 'zod';
import { ServiceError } from '../errors.ts';
import { LangCode } from '../transcripts/schemas.ts';
import { ArticleCategory } from './schemas.ts';
import { decodeSearchCursor, encodeSearchCursor, searchScope } from './search-cursor.ts';
import type { ArticleSearch } from './ports.ts';

/** Deep pages cost the database more than they are worth: page * limit is capped. */
export const MAX_SEARCH_WINDOW = 10_000;
/** Results per page: at most, and when the caller does not say. */
export const MAX_SEARCH_LIMIT = 50;
export const DEFAULT_SEARCH_LIMIT = 10;

export const SearchArticlesInput = z.object({
  query: z
    .string()
    .trim()
    .max(200)
    .optional()
    .describe('Full-text query (words, "quoted phrases", -excluded); omitted or blank: newest first'),
  category: ArticleCategory.optional(),
  lang: LangCode.optional().describe('Only articles written in this language (en also matches en-GB)'),
  page: z
    .number()
    .int()
    .min(1)
    .max(MAX_SEARCH_WINDOW)
    .default(1)
    .describe(
      `1-based page number; page * limit <= ${MAX_SEARCH_WINDOW.toLocaleString('en')}. For deep pages follow nextCursor instead`,
    ),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_SEARCH_LIMIT)
    .default(DEFAULT_SEARCH_LIMIT)
    .describe(`Results per page, 1-${MAX_SEARCH_LIMIT}`),
  cursor: z
    .string()
    .trim()
    .min(1)
    .max(2_000)
    .optional()
    .describe(
      'nextCursor of the previous page, with the same query, category and lang: the page after it, as fast at any depth (page is then left at 1)',
    ),
});
export type SearchArticlesInput = z.infer<typeof SearchArticlesInput>;

const ArticleHit = z.object({
  id: z.string().describe('art_...; GET /api/v1/articles/{id} has the whole article'),
  videoId: z.string(),
  title: z.string(),
  summary: z.string(),
  lang: z.string(),
  category: ArticleCategory,
  tags: z.array(z.string()),
  createdAt: z.string().describe('ISO 8601 date-time'),
  snippet: z
    .string()
    .optional()
    .describe('Excerpt around the match, matches marked with <b>...</b> (Postgres) or <mark>...</mark> (Typesense)'),
});

export const SearchArticlesOutput = z.object({
  total: z
    .number()
    .int()
    .describe(
      `Matching articles, counted up to ${MAX_SEARCH_WINDOW.toLocaleString('en')} (as deep as paging reaches); see totalExact`,
    ),
  totalExact: z
    .boolean()
    .describe(
      `false when more than ${MAX_SEARCH_WINDOW.toLocaleString('en')} articles match: total is then that many and a lower bound`,
    ),
  page: z.number().int(),
  limit: z.number().int(),
  totalPages: z.number().int().describe('ceil(total / limit); 0 when nothing matches'),
  hasMore: z.boolean().describe('A later page has results'),
  nextCursor: z
    .string()
    .nullable()
    .describe('Pass as `cursor` (same query and filters) for the next page; null when nothing follows'),
  results: z.array(ArticleHit).describe('Best match first (newest first without a query); empty past the last page'),
});
export type SearchArticlesOutput = z.infer<typeof SearchArticlesOutput>;

export async function searchArticles(search: ArticleSearch, input: SearchArticlesInput): Promise<SearchArticlesOutput> {
  const limit = input.limit ?? DEFAULT_SEARCH_LIMIT;
  const query = input.query?.trim() || undefined;
  const scope = searchScope(query, input.category, input.lang);
  const after = input.cursor ? decodeSearchCursor(input.cursor, scope) : undefined;
  if (after && (input.page ?? 1) !== 1)
    throw new ServiceError('INVALID_REQUEST', 'pass either page or cursor, not both');
  const page = after ? Math.floor(after.shown / limit) + 1 : (input.page ?? 1);
  if (!after && page * limit > MAX_SEARCH_WINDOW) {
    throw new ServiceError(
      'INVALID_REQUEST',
      `page * limit must be at most ${MAX_SEARCH_WINDOW}; follow nextCursor to go deeper, or narrow the query`,
    );
  }
  const res = await search.search({
    query,
    category: input.category,
    lang: input.lang,
    page,
    limit,
    ...(after ? { after: after.position, counted: { total: after.total, exact: after.exact } } : {}),
  });
  const total = Math.min(res.total, MAX_SEARCH_WINDOW);
  const exact = res.totalExact !== false && res.total <= MAX_SEARCH_WINDOW;
  const totalPages = Math.ceil(total / limit);
  const shown = (after ? after.shown : (page - 1) * limit) + res.results.length;
  // Past an inexact count, only a short page tells the end.
  const more = res.results.length === limit && !!res.next && (shown < total || !exact);
  return {
    total,
    totalExact: exact,
    page,
    limit,
    totalPages,
    hasMore: more,
    nextCursor: more ? encodeSearchCursor(scope, { position: res.next!, shown, total, exact }) : null,
    results: res.results,
  };
}
