import { z } from 'zod';
import { JobResource } from '../jobs/schemas.ts';
import { LangCode } from '../transcripts/schemas.ts';
import { Segment } from '../video/schemas.ts';
import { PER_STARTED_HOUR } from '../pricing/prices.ts';

export const TranslateInput = z.object({
  videoId: z.string().trim().max(64).describe('The 11-character YouTube video id whose transcript was fetched before'),
  sourceLang: LangCode.describe(
    'Language of the stored transcript to translate (BCP 47, e.g. en; en also finds a stored en-US)',
  ),
  targetLang: LangCode.describe('Language to translate into (BCP 47, e.g. fr, pt-BR); must differ from sourceLang'),
});
export type TranslateInput = z.infer<typeof TranslateInput>;

export const TranslatedTranscript = z.object({
  videoId: z.string(),
  sourceLang: z.string().describe('Language of the transcript it was translated from, as stored (e.g. en-US)'),
  targetLang: z.string(),
  segmentCount: z.number().int().describe('Always the source transcript’s segment count'),
  duration: z.number().describe('Seconds: the end of the last segment'),
  segments: z
    .array(Segment)
    .describe('One per source segment, same order, same start and end; only text is translated'),
  model: z.string().describe('The language model that translated it'),
  createdAt: z.string().describe('ISO 8601 date-time'),
});
export type TranslatedTranscript = z.infer<typeof TranslatedTranscript>;

export const TranslateOutput = z.object({
  status: z
    .enum(['succeeded', 'queued', 'running'])
    .describe(
      'succeeded: `translation` is here. queued/running (HTTP 202): poll GET /api/v1/jobs/{job.id} until it succeeds',
    ),
  cached: z.boolean().describe('Served from storage (free)'),
  creditsCharged: z
    .number()
    .int()
    .describe(
      `Credits this request cost so far: ${PER_STARTED_HOUR} per started hour of video on success, 0 when cached or still running`,
    ),
  job: JobResource.describe('The job behind this request; pollable with GET /api/v1/jobs/{id} (MCP get_job)'),
  translation: TranslatedTranscript.optional().describe('Present when status is succeeded'),
});
export type TranslateOutput = z.infer<typeof TranslateOutput>;
