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
      'Every subtitle track of the video: language code, name, auto-generated or manual, translatable, default. An auto-generated track that YouTube labelled with the wrong language says so (`detectedLanguage`, `languageNote`) once it has been extracted: listing never downloads a caption body, so the language is identified when a transcript request first reads that track. Free.',
  },
  mcp: {
    name: 'list_subtitle_tracks',
    description:
      'The subtitle languages a YouTube video has: language code, name, whether auto-generated, whether translatable, and which is the default; an auto-generated track YouTube filed under the wrong language says the language spoken once a transcript has read it. Free. Use a code from here as lang for get_video_subtitles.',
    readOnly: true,
    idempotent: true,
    openWorld: true,
    text: trackListText,
  },
  errors: VIDEO_INFO_ERRORS,
};
