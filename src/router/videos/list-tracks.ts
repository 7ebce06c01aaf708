import { listTracks, TrackList, VideoIdInput } from '../../domain/video/video-queries.ts';
import { keyedProcedure } from '../trpc.ts';
import { listTracksMeta } from './list-tracks.meta.ts';

export const listTracksProcedure = keyedProcedure
  .meta(listTracksMeta)
  .input(VideoIdInput)
  .output(TrackList)
  .query(({ ctx, input }) => listTracks(ctx.deps, ctx.caller.accountId, input.videoId));
