// The meta of playlist.ts: its REST operation (OpenAPI), its MCP tool and its error codes.
import { credits, LISTING_PAGE_PRICE } from '../../domain/pricing/prices.ts';
import { playlistText } from '../mcp-text/listing.ts';
import type { Meta } from '../trpc.ts';

export const listPlaylistMeta: Meta = {
  openapi: {
    method: 'GET',
    path: '/playlists/videos',
    tags: ['listing'],
    summary: 'Videos of a playlist, page by page',
    description:
      'The videos of a YouTube playlist in playlist order, 100 a page, each with `videoId`, `title`, `duration`, `published` and `thumbnail`; the first page also has the playlist’s title, author and video count. ' +
      `Give \`url\` or \`playlistId\`; pass \`nextCursor\` back as \`cursor\` for the next page. ${credits(LISTING_PAGE_PRICE)} per page fetched from YouTube; cached pages are free.`,
  },
  mcp: {
    name: 'list_playlist_videos',
    description:
      'List a YouTube playlist’s videos, one page (up to 100) per call: a line per video with id, title, duration and age. Args: url or playlistId; cursor=nextCursor for the next page, and stop once you have what you need. ' +
      `Costs ${credits(LISTING_PAGE_PRICE)} per page (cached pages free). For transcripts of many videos, use create_batch with the playlist.`,
    readOnly: true,
    idempotent: true,
    openWorld: true,
    text: playlistText,
  },
  errors: ['NOT_FOUND', 'INSUFFICIENT_CREDITS', 'EXTRACTION_FAILED'],
};
