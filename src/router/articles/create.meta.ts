import { PLAYBACK_ERRORS } from '../error-table.ts';
// The meta of create.ts: its REST operation (OpenAPI), its MCP tool and its error codes.
import { requestArticleText } from '../mcp-text/articles.ts';
import { credits, hourlyPrice, PER_STARTED_HOUR, TRANSCRIPT_PRICE } from '../../domain/pricing/prices.ts';
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
      'A structured article (title, summary, timed sections in video order within the video, key points, tags, category) written in `lang` from the video’s transcript. Give `url` or `videoId`. ' +
      `The transcript is used from storage, else extracted first and charged as subtitles (${credits(TRANSCRIPT_PRICE)}). The article costs ${credits(PER_STARTED_HOUR)} per started hour of the video (minimum ${hourlyPrice(1)}), charged only when stored; 402 before any work when unaffordable. ` +
      'Stored per (video, lang, length, sourceLang): repeats are free. Every article gets an id (GET /articles/{id}) and is searchable (GET /articles). ' +
      '`generator` says how it was written: by the language model, or, on a server without one, `extractive` (sentences picked from the transcript, in the transcript’s language; upgraded to an LLM article once one is configured). ' +
      'Long work: the request waits up to about 50 s; if the article is not done by then the answer is **202** with `status` queued/running and a `job` to poll with GET /jobs/{id} until it succeeds (the article is then in `result.article`).',
  },
  mcp: {
    name: 'summarize_video',
    description:
      'Generate a structured article from a YouTube video: title, summary, sections with start/end seconds, key points, tags, category (as markdown text, and as structured content). Args: url or videoId, lang (language to write in), optional length (short|medium|long, default medium) and sourceLang (transcript language). ' +
      `Costs ${credits(PER_STARTED_HOUR)} per started hour of video (+${TRANSCRIPT_PRICE} if the transcript must first be extracted); a stored article is free. ` +
      'If the answer has status "queued" or "running" instead of an article, the work continues in the background: call get_job with job.id (every few seconds) until status is "succeeded" and read result.article.',
    idempotent: true,
    openWorld: true,
    text: requestArticleText,
    links: requestedArticleLinks,
    task: JOB_STARTER,
  },
  acceptedAsJob: true,
  errors: ['NO_SUBTITLES', ...PLAYBACK_ERRORS, 'INSUFFICIENT_CREDITS', 'EXTRACTION_FAILED', 'LLM_FAILED'],
};
