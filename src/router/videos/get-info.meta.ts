// The meta of get-info.ts: its REST operation (OpenAPI), its MCP tool and its error codes.
import { videoInfoText } from '../mcp-text/videos.ts';
import { VIDEO_INFO_ERRORS } from '../error-table.ts';
import type { Meta } from '../trpc.ts';

export const getVideoInfoMeta: Meta = {
  openapi: {
    method: 'GET',
    path: '/videos/{videoId}',
    tags: ['videos'],
    summary: 'Video info',
    description:
      'Title, duration (seconds), thumbnails, publish date (ISO 8601), channel, views, live state, description and chapters. Free. ' +
      '`videoId` may also be a direct media URL (percent-encoded) or its `media-...` id: then the info is what ffprobe reads (duration, `media.streams`, the title tag).',
  },
  mcp: {
    name: 'get_video_info',
    description:
      'Metadata of a YouTube video: title, duration in seconds, thumbnail URL, publish date, channel, view count, live state, description and chapters. Free. videoId may be an id or a YouTube URL, or a direct https URL of an audio/video file or HLS playlist (then: duration, streams and title as ffprobe reads them).',
    readOnly: true,
    idempotent: true,
    openWorld: true,
    text: videoInfoText,
  },
  errors: VIDEO_INFO_ERRORS,
};
