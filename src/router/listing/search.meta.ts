// The meta of search.ts: its REST operation (OpenAPI), its MCP tool and its error codes.
import { credits, LISTING_PAGE_PRICE } from '../../domain/pricing/prices.ts';
import { videoSearchText } from '../mcp-text/listing.ts';
import type { Meta } from '../trpc.ts';
import { LISTING_CACHE_MINUTES } from '../../domain/listing/listing-cache.ts';

export const searchVideosMeta: Meta = {
  openapi: {
    method: 'GET',
    path: '/youtube/search',
    tags: ['listing'],
    summary: 'Search YouTube videos, page by page',
    description:
      'YouTube search results (videos only) for `query`, about 20-30 a page, each with `videoId`, `title`, `duration`, `published` and `thumbnail`. ' +
      `Pass \`nextCursor\` back as \`cursor\` with the same query for more. ${credits(LISTING_PAGE_PRICE)} per page fetched from YouTube; cached pages (${LISTING_CACHE_MINUTES} minutes) are free. ` +
      'This searches YouTube; GET /articles searches the articles stored here.',
  },
  mcp: {
    name: 'search_youtube_videos',
    description:
      'Search YouTube for videos: one page (about 20-30 results) per call, a line per video with id, title, duration and age. Args: query; cursor for more results (cursor=nextCursor). ' +
      `Usually the first page is enough. Costs ${credits(LISTING_PAGE_PRICE)} per page (cached pages free). To search articles already generated here, use search_articles.`,
    readOnly: true,
    idempotent: true,
    openWorld: true,
    text: videoSearchText,
  },
  errors: ['INSUFFICIENT_CREDITS', 'EXTRACTION_FAILED'],
};
