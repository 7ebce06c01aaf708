import { z } from 'zod';
import { Article } from '../articles/schemas.ts';
import { articleOf } from '../articles/request-article.ts';
import { ServiceError } from '../errors.ts';
import type { Caller } from '../keys/caller.ts';
import { translationOf } from '../translations/request-translation.ts';
import { TranslatedTranscript } from '../translations/schemas.ts';
import { reconcileJob, type LlmJobPorts } from './llm-jobs.ts';
import { JobResource, isFinal } from './schemas.ts';
import { presentJob, type JobRow } from './job-store.ts';
import { Transcript } from '../transcripts/schemas.ts';
import { presentPage } from '../transcripts/fetch-transcript.ts';
import type { Stores } from '../stores.ts';
import { cachedSegments } from '../transcripts/stored-segments.ts';

export const GetJobInput = z.object({
  id: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .describe('The job id (job_...) from a 202 answer of translate, summaries or subtitles (speech-to-text)'),
});
export type GetJobInput = z.infer<typeof GetJobInput>;

export const JobWithResult = JobResource.extend({
  result: z
    .object({
      translation: TranslatedTranscript.optional().describe('For kind translation'),
      article: Article.optional().describe('For kind summary'),
      transcript: Transcript.optional().describe(
        'For kind transcription: the whole transcript (stored: POST /subtitles now answers it for free)',
      ),
    })
    .optional()
    .describe('Present when status is succeeded'),
});
export type JobWithResult = z.infer<typeof JobWithResult>;

/** A job of the caller's account, with its result once succeeded. Another account's id reads as JOB_NOT_FOUND. */
export async function getJob(deps: LlmJobPorts, caller: Caller, input: GetJobInput): Promise<JobWithResult> {
  let row = await deps.jobs.read(input.id, caller.accountId);
  if (!row) throw new ServiceError('JOB_NOT_FOUND', `No job ${JSON.stringify(input.id)} for this account`);
  if (!isFinal(row.status)) row = (await reconcileJob(deps, row)) ?? row;
  const job = presentJob(row);
  if (row.status !== 'succeeded') return job;
  if (row.kind === 'transcription') return { ...job, result: { transcript: await transcriptOf(deps, row) } };
  return row.kind === 'translation'
    ? { ...job, result: { translation: await translationOf(deps, row) } }
    : { ...job, result: { article: await articleOf(deps, row) } };
}

/** The stored speech-to-text transcript a succeeded job points at, whole. */
async function transcriptOf(deps: Pick<Stores, 'transcripts'>, job: JobRow): Promise<Transcript> {
  const ref = job.result;
  const stored = ref?.kind === 'transcript' ? await deps.transcripts.read(ref.videoId, ref.lang, ref.origin) : null;
  if (ref?.kind !== 'transcript' || !stored)
    throw new ServiceError('INTERNAL_ERROR', `Job ${job.id} succeeded but its transcript is missing`);
  const requested = (job.input as { lang?: string | null }).lang ?? null;
  const { body, words: _words, ...meta } = stored;
  const t = {
    ...meta,
    ...cachedSegments(body),
    // The job's result is the plain transcript: word timings are asked for with `words` on the transcript call.
    hasWords: false,
    words: () => null,
  };
  // Nested in the job's answer: its segments are read as values (a job is polled, not served again and again).
  return presentPage(ref.videoId, requested, requested ? 'exact' : 'default', t, false, job.creditsCharged, {});
}
