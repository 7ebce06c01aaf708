import { z } from 'zod';
import { Article } from '../articles/schemas.ts';
import { articleOf } from '../articles/request-article.ts';
import { ServiceError } from '../errors.ts';
import type { Caller } from '../keys/manage-keys.ts';
import { translationOf } from '../translations/request-translation.ts';
import { TranslatedTranscript } from '../translations/schemas.ts';
import { reconcileJob, type LlmJobPorts } from './llm-jobs.ts';
import { JobResource, isFinal } from './schemas.ts';
import { presentJob, type JobRow } from './job-store.ts';
import { Transcript } from '../transcripts/schemas.ts';
import { presentPage } from '../transcripts/fetch-transcript.ts';
import type { Stores } from '../stores.ts';
import { arrayItemBounds, readStored } from '../stored-json.ts';

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
  let task = await deps.jobs.read(input.id, caller.accountId);
  if (!task) throw new ServiceError('JOB_NOT_FOUND', `No job ${JSON.stringify(input.id)} for this account`);
  if (!isFinal(task.status)) task = (await reconcileJob(deps, task)) ?? task;
  const job = presentJob(task);
  if (task.status !== 'succeeded') return job;
  if (task.kind === 'transcription') return { ...job, result: { transcript: await transcriptOf(deps, task) } };
  return task.kind === 'translation'
    ? { ...job, result: { translation: await translationOf(deps, task) } }
    : { ...job, result: { article: await articleOf(deps, task) } };
}

/** The stored speech-to-text transcript a succeeded task points at, whole. */
async function transcriptOf(deps: Pick<Stores, 'transcripts'>, task: JobRow): Promise<Transcript> {
  const ref = task.result;
  const stored = ref?.kind === 'transcript' ? await deps.transcripts.read(ref.videoId, ref.lang, ref.origin) : null;
  if (ref?.kind !== 'transcript' || !stored)
    throw new ServiceError('INTERNAL_ERROR', `Task ${task.id} succeeded but its transcript is missing`);
  const requested = (task.input as { lang?: string | null }).lang ?? null;
  const { body, words: _words, ...meta } = stored;
  const segmentsJson = new TextEncoder().encode(body);
  const t = {
    ...meta,
    segmentsJson,
    bounds: arrayItemBounds(segmentsJson),
    // The job's result is the plain transcript: word timings are asked for with `words` on the transcript call.
    hasWords: false,
    words: () => null,
  };
  // Nested in the job's answer: read as values (a job is polled, not served again and again).
  return readStored(
    presentPage(ref.videoId, requested, requested ? 'exact' : 'default', t, false, task.creditsCharged, {}),
  );
}
