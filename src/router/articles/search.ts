import { searchArticles, SearchArticlesInput, SearchArticlesOutput } from '../../domain/articles/search-articles.ts';
import { searchText } from '../mcp-text.ts';
import { keyedProcedure } from '../trpc.ts';

export const searchArticlesProcedure = keyedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/articles',
      tags: ['articles'],
      summary: 'Search generated articles',
      description:
        'Full-text search over every article generated on the service (title weighs most, then summary, then tags, key points and sections), best match first; without `query`, newest first. ' +
        'Filters: `category` (fixed list), `lang` (en also matches en-GB). Paging: `page` >= 1 (default 1), `limit` 1-50 (default 10), page * limit <= 10,000; ' +
        'the answer carries total, totalPages and hasMore, and a page past the end is empty (200). Any query text is safe: it is parsed as words and phrases, never as syntax. Free.',
    },
    mcp: {
      app: true,
      name: 'search_articles',
      description:
        'Search articles already generated on the service (by summarize_video). Args: query (words or "phrases"), optional category, lang, page (from 1), limit (1-50). Returns total, totalPages, hasMore and results with id, videoId, title, summary, tags; get the whole article with its id. Free.',
      readOnly: true,
      idempotent: true,
      text: searchText,
    },
  })
  .input(SearchArticlesInput)
  .output(SearchArticlesOutput)
  .query(({ ctx, input }) => searchArticles(ctx.deps.search, input));
