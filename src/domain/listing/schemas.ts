import { z } from 'zod';

export const ChannelTab = z
  .enum(['videos', 'shorts', 'live'])
  .describe('Which tab of the channel: videos (default), shorts or live (past and current streams)');
export type ChannelTab = z.infer<typeof ChannelTab>;

/** One video of a listing, as YouTube shows it there (no extra request per video). */
export const ListedVideo = z.object({
  videoId: z.string().describe('11-character YouTube video id'),
  title: z.string(),
  duration: z.number().int().nullable().describe('Seconds; null when the listing does not show it (Shorts, live now)'),
  published: z
    .string()
    .nullable()
    .describe('Publish time as YouTube words it in the listing, e.g. "1 year ago"; null when not shown'),
  thumbnail: z.string().nullable().describe('Thumbnail URL'),
});
export type ListedVideo = z.infer<typeof ListedVideo>;

export const ChannelMeta = z.object({
  channelId: z.string().describe('UC... id'),
  name: z.string(),
  handle: z.string().nullable().describe('@handle'),
  description: z.string(),
  subscriberCountText: z.string().nullable().describe('As YouTube words it, e.g. "8.84k subscribers"'),
  avatar: z.string().nullable().describe('Avatar image URL'),
  url: z.string(),
});
export type ChannelMeta = z.infer<typeof ChannelMeta>;

export const PlaylistMeta = z.object({
  playlistId: z.string(),
  title: z.string(),
  author: z.string().nullable(),
  videoCountText: z.string().nullable().describe('As YouTube words it, e.g. "200 videos"'),
  url: z.string(),
});
export type PlaylistMeta = z.infer<typeof PlaylistMeta>;

const Cursor = z
  .string()
  .trim()
  .min(1)
  .max(12_000)
  .optional()
  .describe('nextCursor of the previous page; omit for the first page');

const Page = {
  items: z.array(ListedVideo),
  nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page'),
  cached: z.boolean().describe('Served from the short-lived listing cache (free)'),
  creditsCharged: z.number().int(),
};

export const ListPlaylistInput = z.object({
  url: z
    .string()
    .trim()
    .min(1)
    .max(2048)
    .optional()
    .describe('A playlist URL (/playlist?list=..., or a watch URL with list=)'),
  playlistId: z.string().trim().min(1).max(64).optional().describe('A playlist id (PL..., UU..., OL...)'),
  cursor: Cursor,
});
export type ListPlaylistInput = z.infer<typeof ListPlaylistInput>;
export const PlaylistPage = z.object({ playlist: PlaylistMeta.nullable().describe('On the first page'), ...Page });
export type PlaylistPage = z.infer<typeof PlaylistPage>;

export const ListChannelInput = z.object({
  url: z
    .string()
    .trim()
    .min(1)
    .max(2048)
    .optional()
    .describe('A channel URL: /@handle, /channel/UC..., /c/name or /user/name'),
  channelId: z.string().trim().min(1).max(64).optional().describe('A UC... channel id, or an @handle'),
  tab: ChannelTab.optional(),
  cursor: Cursor,
});
export type ListChannelInput = z.infer<typeof ListChannelInput>;
export const ChannelPage = z.object({
  channel: ChannelMeta.nullable().describe('On the first page'),
  tab: ChannelTab,
  ...Page,
});
export type ChannelPage = z.infer<typeof ChannelPage>;

export const SearchVideosInput = z.object({
  query: z.string().trim().min(1).max(200).describe('What to search YouTube for'),
  cursor: Cursor,
});
export type SearchVideosInput = z.infer<typeof SearchVideosInput>;
export const SearchPage = z.object({ query: z.string(), ...Page });
export type SearchPage = z.infer<typeof SearchPage>;
