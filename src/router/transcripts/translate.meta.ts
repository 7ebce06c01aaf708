// The meta of translate.ts: its REST operation (OpenAPI), its MCP tool and its error codes.
import { translationSummary } from '../mcp-text/transcripts.ts';
import { credits, PER_STARTED_HOUR } from '../../domain/pricing/prices.ts';
import type { Meta } from '../trpc.ts';
import { translationLinks } from '../mcp-resources/transcripts.ts';
import { JOB_STARTER } from '../mcp-tasks.ts';

export const translateTranscriptMeta: Meta = {
  openapi: {
    method: 'POST',
    path: '/transcripts/translate',
    tags: ['transcripts'],
    summary: 'Translate a stored transcript',
    description:
      'Translates a transcript fetched before (POST /subtitles) into `targetLang`, keeping every segment’s `start` and `end`; stored, so repeats are free, and then the video’s transcript in `targetLang` too. ' +
      `${credits(PER_STARTED_HOUR)} per started hour of the video, charged when stored; needs a language model (501 otherwise). ` +
      'Answers **202** with a `job` to poll (GET /jobs/{id}) when not done in about 50 s.',
  },
  mcp: {
    name: 'translate_transcript',
    description:
      'Translate a transcript fetched before (call get_video_subtitles first) into another language, keeping its timestamps. Args: videoId, sourceLang, targetLang (BCP 47, e.g. "fr"). ' +
      `Costs ${credits(PER_STARTED_HOUR)} per started hour of video; repeats are free. ` +
      'On status "queued" or "running", call get_job with job.id every few seconds until "succeeded" and read result.translation.',
    idempotent: true,
    openWorld: true,
    summarize: translationSummary,
    links: translationLinks,
    task: JOB_STARTER,
  },
  acceptedAsJob: true,
  errors: ['TRANSCRIPT_NOT_FOUND', 'LLM_NOT_CONFIGURED', 'INSUFFICIENT_CREDITS', 'LLM_FAILED'],
};
