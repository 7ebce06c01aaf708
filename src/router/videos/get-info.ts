import { getVideoInfo, VideoIdInput, VideoInfo } from '../../domain/video/video-queries.ts';
import { keyedProcedure } from '../trpc.ts';
import { getVideoInfoMeta } from './get-info.meta.ts';

export const getVideoInfoProcedure = keyedProcedure
  .meta(getVideoInfoMeta)
  .input(VideoIdInput)
  .output(VideoInfo)
  .query(({ ctx, input }) => getVideoInfo(ctx.deps, ctx.caller.accountId, input.videoId));
