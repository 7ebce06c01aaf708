// The meta of list-tracks.ts: its REST operation (OpenAPI), its MCP tool and its error codes.
import { trackListText } from '../mcp-text/videos.ts';
import { VIDEO_INFO_ERRORS } from '../error-table.ts';
import type { Meta } from '../trpc.ts';

export const listTracksMeta: Meta = {
  openapi: {
    method: 'GET',
    path: '/videos/{videoId}/tracks',
    tags: ['videos'],
    summary: 'Subtitle tracks',
    description:
      'Every subtitle track of the video: language code, name, auto-generated or manual, translatable, default. An auto-generated track YouTube labelled wrongly says the language spoken (`detectedLanguage`, `languageNote`) once a transcript request has read it: listing downloads no caption body. Free.',
  },
  mcp: {
    name: 'list_subtitle_tracks',
    description:
      'The subtitle languages a YouTube video has: code, name, auto-generated or not, translatable, and the default; an auto-generated track YouTube filed under the wrong language says the language spoken once a transcript has read it. Free. Use a code as lang for get_video_subtitles.',
    readOnly: true,
    idempotent: true,
    openWorld: true,
    text: trackListText,
  },
  errors: VIDEO_INFO_ERRORS,
};
