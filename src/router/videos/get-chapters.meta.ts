// The meta of get-chapters.ts: its REST operation (OpenAPI), its MCP tool and its error codes.
import { VIDEO_INFO_ERRORS } from '../error-table.ts';
import type { Meta } from '../trpc.ts';

export const getVideoChaptersMeta: Meta = {
  openapi: {
    method: 'GET',
    path: '/videos/{videoId}/chapters',
    tags: ['videos'],
    summary: 'Video chapters',
    description:
      "The video's chapters, by start: title, start and end in seconds (YouTube's markers, else the description's timestamps); [] when it has none. Free. For a transcript grouped by chapter, POST /subtitles with chapters: true.",
  },
  mcp: {
    name: 'get_video_chapters',
    description:
      "The chapters of a YouTube video: each title with its start and end in seconds (YouTube's chapter markers, else the description's timestamps); [] when it has none. Free. videoId may be an id or a YouTube URL. For the transcript under its chapters, get_video_subtitles with chapters: true.",
    readOnly: true,
    idempotent: true,
    openWorld: true,
  },
  errors: VIDEO_INFO_ERRORS,
};
