import { PLAYBACK_ERRORS } from '../error-table.ts';
// The meta of create.ts: its REST operation (OpenAPI), its MCP tool and its error codes.
import { requestArticleText } from '../mcp-text/articles.ts';
import { credits, PER_STARTED_HOUR, TRANSCRIPT_PRICE } from '../../domain/pricing/prices.ts';
import type { Meta } from '../trpc.ts';
import { requestedArticleLinks } from '../mcp-resources/articles.ts';
import { JOB_STARTER } from '../mcp-tasks.ts';

export const createArticleMeta: Meta = {
  openapi: {
    method: 'POST',
    path: '/summaries',
    tags: ['summaries'],
    summary: 'Generate an article from a video',
    description:
      'A structured article (title, summary, timed sections, key points, tags, category) written in `lang` from the video’s transcript, which is extracted first when not stored. ' +
      `${credits(PER_STARTED_HOUR)} per started hour of the video, plus ${credits(TRANSCRIPT_PRICE)} for an extracted transcript, charged when stored; repeats are free. ` +
      'Answers **202** with a `job` to poll (GET /jobs/{id}) when not done in about 50 s.',
  },
  mcp: {
    name: 'summarize_video',
    description:
      'Generate a structured article from a YouTube video: title, summary, sections with start/end seconds, key points, tags, category. Args: url or videoId, lang, optional length and sourceLang. ' +
      `Costs ${credits(PER_STARTED_HOUR)} per started hour (+${TRANSCRIPT_PRICE} to extract the transcript); stored articles are free. ` +
      'On status "queued" or "running", call get_job with job.id every few seconds until "succeeded" and read result.article.',
    idempotent: true,
    openWorld: true,
    text: requestArticleText,
    links: requestedArticleLinks,
    task: JOB_STARTER,
  },
  acceptedAsJob: true,
  errors: ['NO_SUBTITLES', ...PLAYBACK_ERRORS, 'INSUFFICIENT_CREDITS', 'EXTRACTION_FAILED', 'LLM_FAILED'],
};
