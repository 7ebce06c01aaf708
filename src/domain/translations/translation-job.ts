import { ServiceError } from '../errors.ts';
import type { Llm, Log } from '../ports.ts';
import type { Stores } from '../stores.ts';
import {
  assertJobPaid,
  commitResult,
  meteredLlm,
  progressReporter,
  recordUsage,
  succeedFree,
  type CommitPorts,
} from '../jobs/llm-jobs.ts';
import type { TranslationJob } from '../work-queue.ts';
import { translateSegments } from './translate-transcript.ts';

export interface TranslationJobPorts extends CommitPorts, Pick<Stores, 'translations' | 'transcripts'> {
  llm: Llm | null;
  log: Log;
}

/** Chunks of one translation in flight at once (the queue's LLM_CONCURRENCY bounds translations per instance). */
const CHUNK_CONCURRENCY = 4;

/** The worker side of a translation: idempotent (a stored translation ends the job for free). */
export async function runTranslationJob(deps: TranslationJobPorts, job: TranslationJob): Promise<{ stored: boolean }> {
  const ref = {
    kind: 'translation' as const,
    videoId: job.videoId,
    sourceLang: job.sourceLang,
    targetLang: job.targetLang,
  };
  if (await deps.translations.read(job.videoId, job.sourceLang, job.targetLang)) {
    await succeedFree(deps, job.key, ref);
    return { stored: false };
  }
  if (!deps.llm)
    throw new ServiceError(
      'LLM_NOT_CONFIGURED',
      'Translation needs a language model and none is configured on this server',
    );
  const source = await deps.transcripts.findIn(job.videoId, job.sourceLang);
  if (!source)
    throw new ServiceError(
      'TRANSCRIPT_NOT_FOUND',
      `The ${job.sourceLang} transcript of ${job.videoId} is no longer stored`,
    );

  await assertJobPaid(deps, job.key);
  const progress = progressReporter(deps, job.key);
  progress.report(0, true);
  const llm = meteredLlm(deps.llm);
  try {
    const out = await translateSegments(llm, source.segments, {
      sourceLang: job.sourceLang,
      targetLang: job.targetLang,
      concurrency: CHUNK_CONCURRENCY,
      maxAttempts: 3,
      // Kept below 1: the job reaches 1 only when the result is stored and charged.
      onProgress: (done, total) => progress.report(total ? (0.99 * done) / total : 0),
    });
    await progress.flush();
    await commitResult(deps, job, async (tx) => {
      await tx.translations.store({
        videoId: job.videoId,
        sourceLang: job.sourceLang,
        targetLang: job.targetLang,
        segments: out.segments,
        model: llm.model,
      });
      return { value: undefined, ref };
    });
    return { stored: true };
  } finally {
    await progress.flush();
    await recordUsage(deps, job.jobId, 'translation', llm).catch((err: unknown) =>
      deps.log.warn({ err }, 'llm usage not recorded'),
    );
  }
}
