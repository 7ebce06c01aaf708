import { getVideoInfo, VideoIdInput, VideoInfo } from '../../domain/video/video-queries.ts';
import { videoInfoText } from '../mcp-text.ts';
import { keyedProcedure } from '../trpc.ts';

export const getVideoInfoProcedure = keyedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/videos/{videoId}',
      tags: ['videos'],
      summary: 'Video info',
      description: 'Title, duration (seconds), thumbnails, publish date (ISO 8601), channel, views, live state, description and chapters. Free.',
    },
    mcp: {
      name: 'get_video_info',
      description:
        'Metadata of a YouTube video: title, duration in seconds, thumbnail URL, publish date, channel, view count, live state, description and chapters. Free. videoId may be an id or a YouTube URL.',
      readOnly: true,
      idempotent: true,
      openWorld: true,
      text: videoInfoText,
    },
    errors: ['VIDEO_NOT_FOUND', 'VIDEO_AGE_RESTRICTED', 'VIDEO_MEMBERS_ONLY', 'VIDEO_PAID', 'VIDEO_REGION_BLOCKED', 'VIDEO_UPCOMING', 'VIDEO_UNPLAYABLE', 'EXTRACTION_FAILED'],
  })
  .input(VideoIdInput)
  .output(VideoInfo)
  .query(({ ctx, input }) => getVideoInfo(ctx.deps, input.videoId));
