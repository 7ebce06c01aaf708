// The meta of playlist.ts: its REST operation (OpenAPI), its MCP tool and its error codes.
import { credits, LISTING_PAGE_PRICE } from '../../domain/pricing/prices.ts';
import { playlistText } from '../mcp-text/listing.ts';
import type { Meta } from '../trpc.ts';
import { LISTING_CACHE_MINUTES } from '../../domain/listing/listing-cache.ts';

export const listPlaylistMeta: Meta = {
  openapi: {
    method: 'GET',
    path: '/playlists/videos',
    tags: ['listing'],
    summary: 'Videos of a playlist, page by page',
    description:
      'The videos of a YouTube playlist in playlist order (YouTube serves 100 a page), each with `videoId`, `title`, `duration` (seconds), `published` (as YouTube words it, when shown) and `thumbnail`; the first page also has the playlist’s title, author and video count. ' +
      'Give `url` (`/playlist?list=...` or a watch URL with `list=`) or `playlistId`. Pass `nextCursor` back as `cursor` for the next page; it is null on the last. ' +
      `${credits(LISTING_PAGE_PRICE)} per page fetched from YouTube; a page fetched in the last ${LISTING_CACHE_MINUTES} minutes is served from cache for free.`,
  },
  mcp: {
    name: 'list_playlist_videos',
    description:
      'List the videos of a YouTube playlist, one page (up to 100 videos) per call: a line per video with its id, title, duration and age. Args: url or playlistId; cursor for later pages. ' +
      `To walk a whole playlist, call again with cursor=nextCursor until it is null, and stop as soon as you have the videos you need. Costs ${credits(LISTING_PAGE_PRICE)} per page (cached pages free). ` +
      'To get transcripts of many of its videos, prefer create_batch with the playlist instead of one call per video.',
    readOnly: true,
    idempotent: true,
    openWorld: true,
    text: playlistText,
  },
  errors: ['NOT_FOUND', 'INSUFFICIENT_CREDITS', 'EXTRACTION_FAILED'],
};
