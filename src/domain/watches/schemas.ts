import { z } from 'zod';
import { CallbackUrl } from '../webhooks/schemas.ts';
import { ListChannelInput, ListPlaylistInput, SearchVideosInput } from '../listing/schemas.ts';

/** What a watch reads: exactly one of a channel tab, a playlist or a search (the listing endpoints' inputs, no cursor). */
export const WatchTarget = z.object({
  channel: ListChannelInput.omit({ cursor: true }).optional().describe('A channel tab: url or channelId, and tab'),
  playlist: ListPlaylistInput.omit({ cursor: true }).optional().describe('A playlist: url or playlistId'),
  search: SearchVideosInput.omit({ cursor: true }).optional().describe('A search: query'),
});
export type WatchTarget = z.infer<typeof WatchTarget>;

export const CreateWatchInput = WatchTarget.extend({
  intervalSeconds: z
    .number()
    .int()
    .min(1)
    .max(30 * 86_400)
    .describe('Seconds between checks; at least the operator’s WATCH_MIN_INTERVAL_SECONDS (default 3600)')
    .optional(),
  transcripts: z
    .boolean()
    .describe('Also fetch the transcript of each new video (charged per video as POST /subtitles); default false')
    .optional(),
  lang: z.string().trim().min(2).max(16).describe('Transcript language (BCP-47); default the video’s own').optional(),
  callbackUrl: CallbackUrl.describe(
    'https URL that receives signed watch.video_published and watch.transcript_ready events (Standard Webhooks); must resolve to public addresses',
  ),
});
export type CreateWatchInput = z.infer<typeof CreateWatchInput>;

export const WatchIdInput = z.object({
  id: z.string().trim().min(1).max(64).describe('The watch id (wat_...)'),
});
export type WatchIdInput = z.infer<typeof WatchIdInput>;

export const Watch = z.object({
  id: z.string().describe('wat_...'),
  target: WatchTarget,
  intervalSeconds: z.number().int(),
  transcripts: z.boolean(),
  lang: z.string().nullable(),
  callbackUrl: z.string().nullable(),
  status: z.enum(['active', 'paused']).describe('paused: it kept failing (pausedReason says why); no more checks'),
  pausedReason: z.string().nullable(),
  failures: z.number().int().describe('Consecutive failed checks'),
  lastError: z.string().nullable(),
  lastCheckedAt: z.string().nullable(),
  nextCheckAt: z.string(),
  createdAt: z.string(),
});
export type Watch = z.infer<typeof Watch>;

const WatchEventKind = z
  .enum(['video_published', 'transcript_ready', 'transcript_refused', 'transcript_failed'])
  .describe(
    'video_published: a video newer than the last seen; transcript_ready: its transcript was fetched; transcript_refused: not fetched (detail says why, e.g. INSUFFICIENT_CREDITS); transcript_failed: the fetch failed',
  );

export const WatchEvent = z.object({
  videoId: z.string(),
  kind: WatchEventKind,
  title: z.string().nullable(),
  detail: z.string().nullable().describe('The error code and message of a refused or failed transcript'),
  creditsCharged: z.number().int(),
  createdAt: z.string(),
});
export type WatchEvent = z.infer<typeof WatchEvent>;

export const WatchWithHistory = Watch.extend({
  history: z.array(WatchEvent).describe('What its checks found, newest first (at most 100)'),
});
export type WatchWithHistory = z.infer<typeof WatchWithHistory>;

export const WatchList = z.object({ watches: z.array(Watch) });
export type WatchList = z.infer<typeof WatchList>;

export const DeletedWatch = z.object({ id: z.string(), deleted: z.literal(true) });

export const EmptyInput = z.object({});
