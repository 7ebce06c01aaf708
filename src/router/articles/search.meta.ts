// The meta of search.ts: its REST operation (OpenAPI), its MCP tool and its error codes.
import { articleSearchText } from '../mcp-text/articles.ts';
import type { Meta } from '../trpc.ts';
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT, MAX_SEARCH_WINDOW } from '../../domain/articles/search-articles.ts';

const WINDOW = MAX_SEARCH_WINDOW.toLocaleString('en');

export const searchArticlesMeta: Meta = {
  openapi: {
    method: 'GET',
    path: '/articles',
    tags: ['articles'],
    summary: 'Search generated articles',
    description:
      'Full-text search over every article generated on the service (title weighs most, then summary, then tags, key points and sections), best match first; without `query`, newest first. ' +
      `Filters: \`category\` (fixed list), \`lang\` (en also matches en-GB). Paging: \`page\` >= 1 (default 1), \`limit\` 1-${MAX_SEARCH_LIMIT} (default ${DEFAULT_SEARCH_LIMIT}), page * limit <= ${WINDOW}; ` +
      'the answer carries total, totalPages, hasMore and `nextCursor`, and a page past the end is empty (200). ' +
      'For deep pages pass `nextCursor` back as `cursor` with the same query, category and lang (and any limit): the next page starts right after the last article shown, ' +
      `as fast at page 100 as at page 2, and goes on past ${WINDOW} matches; total is the count of the first page. A cursor from another search, or with \`page\`, is 400. ` +
      'Any query text is safe: it is parsed as words and phrases, never as syntax. Free.',
  },
  mcp: {
    app: true,
    name: 'search_articles',
    description: `Search articles already generated on the service (by summarize_video). Args: query (words or "phrases"), optional category, lang, limit (1-${MAX_SEARCH_LIMIT}), and cursor (nextCursor of the previous page, same query and filters) or page (from 1). Returns total, totalPages, hasMore, nextCursor and results with id, videoId, title, summary, tags; get the whole article with its id. Free.`,
    readOnly: true,
    idempotent: true,
    text: articleSearchText,
  },
};
