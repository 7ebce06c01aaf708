// The operations an agent framework's tools offer, written once: each a zod input schema (checked against the
// router's input types), a description for the model, and the tRPC call it makes. ai-sdk.ts and langchain.ts wrap
// these; zod is their peer dependency, as it is the frameworks'.
import type { TRPCClient } from '@trpc/client';
import { z } from 'zod';
import type { AppRouter } from './generated/app-router.js';
import type { RouterInputs, RouterOutputs } from './trpc-client.js';

const videoId = z.string().min(1).describe('The YouTube video id (11 characters) or a media-... id');
const lang = z.string().min(2).max(35).describe('A language code such as en, de or pt-BR');
const cursor = z.string().optional().describe('The nextCursor of the previous page, for the next one');

const schemas = {
  get_transcript: z.object({
    videoId,
    lang: lang.optional(),
    format: z.enum(['text', 'json', 'srt', 'vtt']).default('text').describe('text: timed lines for reading'),
    offset: z.number().int().min(0).optional().describe('First segment of the page'),
    limit: z.number().int().min(1).optional().describe('Segments in the page'),
    chapters: z.boolean().optional().describe('Group the segments by the video’s chapters'),
  }) satisfies z.ZodType<RouterInputs['subtitles']['get']>,
  get_video_info: z.object({ videoId }) satisfies z.ZodType<RouterInputs['videos']['info']>,
  capture_frames: z.object({
    videoId,
    timestamps: z.array(z.number().min(0)).min(1).max(20).describe('Seconds into the video'),
    width: z.number().int().min(16).max(1920).optional(),
  }) satisfies z.ZodType<RouterInputs['frames']['capture']>,
  translate_transcript: z.object({
    videoId,
    sourceLang: lang.describe('The language of the transcript to translate'),
    targetLang: lang.describe('The language to translate into'),
  }) satisfies z.ZodType<RouterInputs['transcripts']['translate']>,
  summarize_video: z.object({
    videoId,
    lang: lang.describe('The language of the article'),
    length: z.enum(['short', 'medium', 'long']).optional(),
  }) satisfies z.ZodType<RouterInputs['summaries']['create']>,
  search_articles: z.object({
    query: z.string().min(1).describe('Words to find in the articles already written'),
    lang: lang.optional(),
    limit: z.number().int().min(1).max(50).optional(),
  }) satisfies z.ZodType<RouterInputs['articles']['search']>,
  list_videos: z.object({
    kind: z.enum(['playlist', 'channel', 'search']),
    target: z.string().min(1).describe('A playlist or channel URL or id, or the words to search YouTube for'),
    cursor,
  }),
};

type Schemas = typeof schemas;
export type OperationName = keyof Schemas;
export type OperationInput<N extends OperationName> = z.output<Schemas[N]>;

const listVideos = (api: TRPCClient<AppRouter>, i: OperationInput<'list_videos'>) => {
  const byUrl = /^https?:\/\//.test(i.target);
  if (i.kind === 'search') return api.listing.search.query({ query: i.target, cursor: i.cursor });
  if (i.kind === 'playlist')
    return api.listing.playlist.query(
      byUrl ? { url: i.target, cursor: i.cursor } : { playlistId: i.target, cursor: i.cursor },
    );
  return api.listing.channel.query(
    byUrl ? { url: i.target, cursor: i.cursor } : { channelId: i.target, cursor: i.cursor },
  );
};

export interface OperationOutputs {
  get_transcript: RouterOutputs['subtitles']['get'];
  get_video_info: RouterOutputs['videos']['info'];
  capture_frames: RouterOutputs['frames']['capture'];
  translate_transcript: RouterOutputs['transcripts']['translate'];
  summarize_video: RouterOutputs['summaries']['create'];
  search_articles: RouterOutputs['articles']['search'];
  list_videos: RouterOutputs['listing']['search' | 'playlist' | 'channel'];
}

type Operation<N extends OperationName> = {
  description: string;
  input: Schemas[N];
  run(api: TRPCClient<AppRouter>, input: OperationInput<N>): Promise<OperationOutputs[N]>;
};

/** Every operation, by tool name. Prices are the service's (each answer says what it charged). */
export const OPERATIONS: { [N in OperationName]: Operation<N> } = {
  get_transcript: {
    description: 'The timed transcript of a YouTube video (a stored one is free; a new one costs credits).',
    input: schemas.get_transcript,
    run: (api, input) => api.subtitles.get.mutate(input),
  },
  get_video_info: {
    description: 'A video’s title, channel, publish date, duration, description and chapters. Free.',
    input: schemas.get_video_info,
    run: (api, input) => api.videos.info.query(input),
  },
  capture_frames: {
    description: 'Still images of a video at the given seconds, as signed image URLs.',
    input: schemas.capture_frames,
    run: (api, input) => api.frames.capture.mutate(input),
  },
  translate_transcript: {
    description: 'A video’s transcript translated into another language, timestamps kept (may answer a job).',
    input: schemas.translate_transcript,
    run: (api, input) => api.transcripts.translate.mutate(input),
  },
  summarize_video: {
    description: 'An article written from a video’s transcript, with sections and timestamps (may answer a job).',
    input: schemas.summarize_video,
    run: (api, input) => api.summaries.create.mutate(input),
  },
  search_articles: {
    description: 'Search the articles already written from videos. Free.',
    input: schemas.search_articles,
    run: (api, input) => api.articles.search.query(input),
  },
  list_videos: {
    description: 'The videos of a YouTube playlist or channel, or of a YouTube search, a page at a time.',
    input: schemas.list_videos,
    run: listVideos,
  },
};
