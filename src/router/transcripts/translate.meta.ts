// The meta of translate.ts: its REST operation (OpenAPI), its MCP tool and its error codes.
import { translationSummary } from '../mcp-text/transcripts.ts';
import { credits, hourlyPrice, PER_STARTED_HOUR } from '../../domain/pricing/prices.ts';
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
      'Translates a transcript fetched before (POST /subtitles) into `targetLang`, keeping every segment: same count, same `start`/`end`, only `text` changes. ' +
      'The translation is stored per (video, sourceLang, targetLang): repeats are free and instant, and it also becomes the video’s transcript in `targetLang` for POST /subtitles. ' +
      `Price: ${credits(PER_STARTED_HOUR)} per started hour of the video (61 min -> ${hourlyPrice(61 * 60)}, minimum ${hourlyPrice(1)}), charged only when the translation is stored; 402 before any work when unaffordable. ` +
      'Needs a language model on the server (501 LLM_NOT_CONFIGURED otherwise; stored translations are still served). ' +
      'Long work: the request waits up to about 50 s; if the translation is not done by then the answer is **202** with `status` queued/running and a `job` to poll with GET /jobs/{id} until `status` is succeeded (the result is then in `result.translation`). ' +
      'Identical concurrent requests share one piece of work; whoever started it pays.',
  },
  mcp: {
    name: 'translate_transcript',
    description:
      'Translate a previously fetched transcript (call get_video_subtitles first) into another language, keeping the timestamps: same segments, same start/end, translated text. ' +
      'Args: videoId, sourceLang (language of the fetched transcript), targetLang (BCP 47, e.g. "fr", "pt-BR"). ' +
      `Costs ${credits(PER_STARTED_HOUR)} per started hour of video; repeats are free. ` +
      'If the answer has status "queued" or "running" instead of a translation, the work continues in the background: call get_job with job.id (every few seconds) until status is "succeeded" and read result.translation.',
    idempotent: true,
    openWorld: true,
    summarize: translationSummary,
    links: translationLinks,
    task: JOB_STARTER,
  },
  acceptedAsJob: true,
  errors: ['TRANSCRIPT_NOT_FOUND', 'LLM_NOT_CONFIGURED', 'INSUFFICIENT_CREDITS', 'LLM_FAILED'],
};
