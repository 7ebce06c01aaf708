// The meta of channel.ts: its REST operation (OpenAPI), its MCP tool and its error codes.
import { credits, LISTING_PAGE_PRICE } from '../../domain/pricing/prices.ts';
import { channelText } from '../mcp-text/listing.ts';
import type { Meta } from '../trpc.ts';
import { LISTING_CACHE_MINUTES } from '../../domain/listing/listing-cache.ts';

export const listChannelMeta: Meta = {
  openapi: {
    method: 'GET',
    path: '/channels/videos',
    tags: ['listing'],
    summary: 'Videos of a channel, page by page',
    description:
      'The videos of a YouTube channel’s Videos, Shorts or Live tab (`tab`, default videos), newest first as YouTube orders them (about 30 a page, 48 for Shorts), each with `videoId`, `title`, `duration`, `published` and `thumbnail`. ' +
      'The first page also has the channel: `name`, `handle`, `description`, `subscriberCountText`, `avatar`. Give `url` (`/@handle`, `/channel/UC...`, `/c/name`, `/user/name`) or `channelId` (UC... or @handle). ' +
      `Pass \`nextCursor\` back as \`cursor\` (with the same channel and tab) for the next page; null on the last. ${credits(LISTING_PAGE_PRICE)} per page fetched from YouTube; cached pages (${LISTING_CACHE_MINUTES} minutes) are free.`,
  },
  mcp: {
    name: 'list_channel_videos',
    description:
      'List a YouTube channel’s videos one page (about 30; 48 Shorts) per call, newest first: a line per video with id, title, duration and age; the first page starts with the channel’s name, handle and subscriber count. ' +
      'Args: url (/@handle, /channel/UC..., /c/..., /user/...) or channelId (UC... or @handle); tab videos|shorts|live; cursor. ' +
      `Channels can have thousands of videos: do not walk them all. Read the first page, and call again with cursor=nextCursor only while you still need older videos. Each page costs ${credits(LISTING_PAGE_PRICE)} (cached pages free). ` +
      'For transcripts of many videos, use create_batch with the channel and maxVideos rather than listing everything here.',
    readOnly: true,
    idempotent: true,
    openWorld: true,
    text: channelText,
  },
  errors: ['NOT_FOUND', 'INSUFFICIENT_CREDITS', 'EXTRACTION_FAILED'],
};
