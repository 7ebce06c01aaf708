import { getVideoChapters, VideoChapters, VideoIdInput } from '../../domain/video/video-queries.ts';
import { keyedProcedure } from '../trpc.ts';
import { getVideoChaptersMeta } from './get-chapters.meta.ts';

export const getVideoChaptersProcedure = keyedProcedure
  .meta(getVideoChaptersMeta)
  .input(VideoIdInput)
  .output(VideoChapters)
  .query(({ ctx, input }) => getVideoChapters(ctx.deps, ctx.caller.accountId, input.videoId));
