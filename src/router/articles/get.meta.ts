// The meta of get.ts: its REST operation (OpenAPI), its MCP tool and its error codes.
import { articleMarkdown } from '../mcp-text/articles.ts';
import type { Meta } from '../trpc.ts';
import { articleLinks, articleResource } from '../mcp-resources/articles.ts';

export const getArticleMeta: Meta = {
  openapi: {
    method: 'GET',
    path: '/articles/{id}',
    tags: ['articles'],
    summary: 'One article',
    description: 'The whole article by id (art_..., from POST /summaries or GET /articles). Free.',
  },
  // Not in the spec's tool list, but an agent that found an article with search_articles needs a way to read it.
  mcp: {
    name: 'get_article',
    description:
      'The whole article (sections with timestamps, key points, tags) by its id (art_...) from search_articles or summarize_video. Free.',
    readOnly: true,
    idempotent: true,
    text: articleMarkdown,
    links: articleLinks,
    resource: articleResource,
  },
  errors: ['ARTICLE_NOT_FOUND'],
};
