// The worker side of speech-to-text: the video's audio-only stream, decoded, cut on silence, transcribed chunk by
// chunk, stored as the video's 'speech' transcript and charged per started minute of audio in one transaction.
// Idempotent: a transcript already stored ends the job for free.
import { z } from 'zod';
import { ServiceError } from '../errors.ts';
import type { Log, VideoSource } from '../ports.ts';
import { speechPrice } from '../pricing/prices.ts';
import type { Settings } from '../settings.ts';
import type { Stores } from '../stores.ts';
import { commitResult, progressReporter, succeedFree, type CommitPorts } from '../jobs/llm-jobs.ts';
import type { JobResultRef } from '../jobs/job-store.ts';
import { Segment } from '../video/schemas.ts';
import { splitWords } from '../transcripts/words.ts';
import { speechBudget } from './speech-budget.ts';
import type { SpeechJob } from '../work-queue.ts';
import type { Speech } from './ports.ts';
import { transcribeAudio } from './transcribe-audio.ts';

const StoredSegments = z.array(Segment);

export interface SpeechJobPorts extends CommitPorts, Pick<Stores, 'transcripts' | 'ledger'> {
  youtube: VideoSource;
  speech: Speech | null;
  log: Log;
  config: CommitPorts['config'] & Pick<Settings, 'STT_MAX_SECONDS' | 'STT_MAX_BYTES'>;
}

export async function runSpeechJob(
  deps: SpeechJobPorts,
  job: SpeechJob,
): Promise<{ stored: boolean; seconds?: number }> {
  const existing = await deps.transcripts.findSpeech(job.videoId, job.lang);
  if (existing) {
    await succeedFree(deps, job.key, refOf(job.videoId, existing.lang));
    return { stored: false };
  }
  const speech = deps.speech;
  if (!speech) throw new ServiceError('STT_NOT_CONFIGURED', 'Speech-to-text is not available on this server');
  if (!deps.youtube.getAudioSource)
    throw new ServiceError('EXTRACTION_FAILED', 'This video source has no audio streams');

  const progress = progressReporter(deps, job.key);
  progress.report(0, true);
  try {
    const budget = await speechBudget(deps, job.key, deps.config.DAILY_FREE_CREDITS);
    const source = await deps.youtube.getAudioSource(job.videoId);
    const out = await transcribeAudio(speech, source, {
      language: job.lang,
      maxSeconds: deps.config.STT_MAX_SECONDS,
      maxBytes: deps.config.STT_MAX_BYTES,
      budget,
      // Kept below 1: the job reaches 1 only when the transcript is stored and charged.
      onProgress: (fraction) => progress.report(0.99 * fraction),
    });
    await progress.flush();
    if (out.segments.length === 0)
      throw new ServiceError('NO_SUBTITLES', 'No speech was recognised in the audio; nothing was charged');
    // Word timings are stored beside the segments (answers with `words=true` read them).
    const { segments: plain, words } = splitWords(out.segments);
    const segments = StoredSegments.parse(plain);
    const lang = job.lang ?? out.language ?? 'und';
    const price = speechPrice(out.seconds);
    await commitResult(deps, { ...job, price }, async (tx) => {
      const isNew = await tx.transcripts.storeIfAbsent(job.videoId, {
        lang,
        origin: 'speech',
        trackName: `Speech-to-text (${speech.engine.model})`,
        segments,
        words,
        engine: speech.engine.name,
        model: speech.engine.model,
      });
      // Already stored by another job (a retry, or the same language under another key): nobody pays again.
      return { value: undefined, ref: refOf(job.videoId, lang), isNew };
    });
    return { stored: true, seconds: out.seconds };
  } finally {
    await progress.flush();
  }
}

const refOf = (videoId: string, lang: string): JobResultRef => ({
  kind: 'transcript',
  videoId,
  lang,
  origin: 'speech',
});
