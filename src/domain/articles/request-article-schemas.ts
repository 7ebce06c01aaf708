import { z } from 'zod';
import { Article, ArticleLength } from './schemas.ts';
import { JobResource } from '../jobs/schemas.ts';
import { LangCode, VideoRefInput } from '../transcripts/schemas.ts';
import { PER_STARTED_HOUR, TRANSCRIPT_PRICE } from '../pricing/prices.ts';

export const RequestArticleInput = z.object({
  ...VideoRefInput,
  lang: LangCode.describe(
    'Language to write the article in (BCP 47). Without a language model on the server the article is extractive and stays in the transcript’s language',
  ),
  length: ArticleLength.optional(),
  sourceLang: LangCode.optional().describe(
    'Transcript language to summarize from. Default: a stored transcript in `lang`, else a track in `lang`, else the video’s default track',
  ),
});
export type RequestArticleInput = z.infer<typeof RequestArticleInput>;

export const RequestArticleOutput = z.object({
  status: z
    .enum(['succeeded', 'queued', 'running'])
    .describe(
      'succeeded: `article` is here. queued/running (HTTP 202): poll GET /api/v1/jobs/{job.id} until it succeeds',
    ),
  cached: z.boolean().describe('The article was already stored (free)'),
  creditsCharged: z
    .number()
    .int()
    .describe(
      `Credits this request cost so far: ${TRANSCRIPT_PRICE} when the transcript had to be extracted, plus ${PER_STARTED_HOUR} per started hour of video once the article is written`,
    ),
  job: JobResource.describe('The job behind this request; pollable with GET /api/v1/jobs/{id} (MCP get_job)'),
  article: Article.optional().describe('Present when status is succeeded'),
});
export type RequestArticleOutput = z.infer<typeof RequestArticleOutput>;
