// The meta of get.ts: its REST operation (OpenAPI), its MCP tool and its error codes.
import { jobText } from '../mcp-text/jobs.ts';
import type { Meta } from '../trpc.ts';
import { jobLinks } from '../mcp-resources/jobs.ts';
import { JOB_READER } from '../mcp-tasks.ts';

export const getJobMeta: Meta = {
  openapi: {
    method: 'GET',
    path: '/jobs/{id}',
    tags: ['jobs'],
    summary: 'A job’s status and result',
    description:
      'Long translations and summaries, and speech-to-text transcripts (POST /subtitles), answer 202 with a job; poll this (every few seconds) until `status` is succeeded (then `result` holds the translation, article or transcript) or failed (then `error` says why; nothing was charged). ' +
      '`progress` goes from 0 to 1. Only the account that started the job can see it (JOB_NOT_FOUND otherwise). Free.',
  },
  mcp: {
    name: 'get_job',
    description:
      'Status of a background job started by translate_transcript, summarize_video or get_video_subtitles (speech-to-text) when they answered with status "queued" or "running". Arg: id (job_...). ' +
      'Returns status (queued|running|succeeded|failed), progress 0..1, and when succeeded result.translation, result.article or result.transcript; when failed, error. Free; poll every few seconds.',
    readOnly: true,
    text: jobText,
    links: jobLinks,
    task: JOB_READER,
  },
  errors: ['JOB_NOT_FOUND'],
};
