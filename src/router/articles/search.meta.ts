// The meta of search.ts: its REST operation (OpenAPI), its MCP tool and its error codes.
import { articleSearchText } from '../mcp-text/articles.ts';
import type { Meta } from '../trpc.ts';
import { MAX_SEARCH_LIMIT, MAX_SEARCH_WINDOW } from '../../domain/articles/search-articles.ts';

const _WINDOW = MAX_SEARCH_WINDOW.toLocaleString('en');

export const searchArticlesMeta: Meta = {
  openapi: {
    method: 'GET',
    path: '/articles',
    tags: ['articles'],
    summary: 'Search generated articles',
    description:
      'Full-text search over the articles generated on this service, best match first (newest first without `query`), filtered by `category` and `lang`. ' +
      'Page with `page`, or pass `nextCursor` back as `cursor` (same query and filters) for deep pages. Any query text is safe: words and phrases, never syntax. Free.',
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
