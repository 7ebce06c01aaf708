// The meta of channel.ts: its REST operation (OpenAPI), its MCP tool and its error codes.
import { credits, LISTING_PAGE_PRICE } from '../../domain/pricing/prices.ts';
import { channelText } from '../mcp-text/listing.ts';
import type { Meta } from '../trpc.ts';

export const listChannelMeta: Meta = {
  openapi: {
    method: 'GET',
    path: '/channels/videos',
    tags: ['listing'],
    summary: 'Videos of a channel, page by page',
    description:
      'The videos of a YouTube channel’s `tab` (videos, shorts or live), newest first, about 30 a page (48 Shorts); the first page also has the channel’s name, handle, description, subscribers and avatar. ' +
      `Give \`url\` or \`channelId\`; pass \`nextCursor\` back as \`cursor\` for the next page. ${credits(LISTING_PAGE_PRICE)} per page fetched from YouTube; cached pages are free.`,
  },
  mcp: {
    name: 'list_channel_videos',
    description:
      'List a YouTube channel’s videos, newest first, one page (about 30; 48 Shorts) per call. Args: url or channelId (UC... or @handle), tab videos|shorts|live, cursor. ' +
      `Channels hold thousands of videos: page on (cursor=nextCursor) only while you need older ones. ${credits(LISTING_PAGE_PRICE)} per page (cached free). For many transcripts, use create_batch with the channel.`,
    readOnly: true,
    idempotent: true,
    openWorld: true,
    text: channelText,
  },
  errors: ['NOT_FOUND', 'INSUFFICIENT_CREDITS', 'EXTRACTION_FAILED'],
};
