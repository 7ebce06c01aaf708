import type { CallerRequest } from '../keys/caller.ts';
import { ServiceError } from '../errors.ts';
import type { Llm } from '../ports.ts';
import { hourlyPrice, pricedDuration } from '../pricing/prices.ts';
import type { Settings } from '../settings.ts';
import type { Stores } from '../stores.ts';
import { remainingWait, runLlmJob, jobError, type LlmJobPorts } from '../jobs/llm-jobs.ts';
import { presentJob, type JobRow } from '../jobs/job-store.ts';
import { parseVideoRef } from '../video/video-ref.ts';
import { assertOwnsVideo } from '../video/media-owner.ts';
import { normalizeLang, sameLang } from './normalize-lang.ts';
import type { TranslateOutput, TranslateInput, TranslatedTranscript } from './schemas.ts';
import type { StoredTranslation } from './translation-store.ts';
import { withTranslationSegments } from '../transcripts/stored-segments.ts';

export interface TranslationPorts extends LlmJobPorts, Pick<Stores, 'transcripts' | 'videos' | 'ledger'> {
  llm: Llm | null;
  config: Pick<Settings, 'REQUEST_WAIT_MS' | 'DAILY_FREE_CREDITS'>;
}

export const translationKey = (videoId: string, sourceLang: string, targetLang: string) =>
  `tr:${videoId}:${sourceLang}:${targetLang}`;

/** The stored transcript to translate: two different languages, a source stored, not already in the target. */
async function sourceTranscript(deps: TranslationPorts, videoId: string, sourceLang: string, targetLang: string) {
  if (sameLang(sourceLang, targetLang)) {
    throw new ServiceError(
      'INVALID_REQUEST',
      `sourceLang and targetLang are both "${targetLang}"; give two different languages`,
    );
  }
  const source = await deps.transcripts.findIn(videoId, sourceLang);
  if (!source) {
    throw new ServiceError(
      'TRANSCRIPT_NOT_FOUND',
      `No stored "${sourceLang}" transcript for video ${videoId}. Fetch the subtitles first (POST /api/v1/subtitles, ` +
        `MCP get_video_subtitles, with lang "${sourceLang}"), then translate.`,
    );
  }
  if (sameLang(source.lang, targetLang)) {
    throw new ServiceError('INVALID_REQUEST', `The stored "${sourceLang}" transcript is already in ${source.lang}`);
  }
  return source;
}

/**
 * Translates a stored transcript, keeping every segment's start and end. Order of checks: input (400), stored
 * source transcript (404), stored translation (free, also without an LLM), LLM configured (501), credits held
 * (402 when they cannot be), then the work itself on the `llm` queue, waited for up to REQUEST_WAIT_MS.
 */
export async function requestTranslation(
  deps: TranslationPorts,
  req: CallerRequest,
  input: TranslateInput,
): Promise<TranslateOutput> {
  const startedAt = Date.now();
  const videoId = parseVideoRef({ videoId: input.videoId });
  await assertOwnsVideo(deps.videos, req.caller.accountId, videoId);
  const sourceLang = normalizeLang(input.sourceLang);
  const targetLang = normalizeLang(input.targetLang);
  const source = await sourceTranscript(deps, videoId, sourceLang, targetLang);
  const jobInput = { videoId, sourceLang, targetLang, resolvedSourceLang: source.lang };

  const cached = await deps.translations.read(videoId, source.lang, targetLang);
  if (cached) {
    const job = await deps.jobs.create({
      accountId: req.caller.accountId,
      kind: 'translation',
      input: jobInput,
      requestId: req.requestId,
      status: 'succeeded',
      result: { kind: 'translation', videoId, sourceLang: source.lang, targetLang },
    });
    return withTranslation({ status: 'succeeded', cached: true, creditsCharged: 0, job: presentJob(job) }, cached);
  }

  if (!deps.llm) {
    throw new ServiceError(
      'LLM_NOT_CONFIGURED',
      'Translation needs a language model and none is configured on this server (ANTHROPIC_API_KEY)',
    );
  }
  const video = await deps.videos.read(videoId);
  const price = hourlyPrice(pricedDuration(video?.info.duration, source.duration));
  const key = translationKey(videoId, source.lang, targetLang);
  const job = await runLlmJob(deps, req, {
    kind: 'translation',
    input: jobInput,
    key,
    job: (jobId) => ({ kind: 'translation', key, jobId, videoId, price, sourceLang: source.lang, targetLang }),
    waitMs: remainingWait(deps, startedAt),
    charge: {
      amount: price,
      operation: 'translation',
      videoId,
      queue: 'llm',
      dailyAllowance: deps.config.DAILY_FREE_CREDITS,
    },
  });
  return presentTranslationJob(deps, job);
}

async function presentTranslationJob(deps: Pick<Stores, 'translations'>, row: JobRow): Promise<TranslateOutput> {
  if (row.status === 'failed') throw jobError(row);
  const job = presentJob(row);
  if (row.status !== 'succeeded') return { status: row.status, cached: false, creditsCharged: 0, job };
  const stored = await storedTranslationOf(deps, row);
  return withTranslation({ status: 'succeeded', cached: false, creditsCharged: row.creditsCharged, job }, stored);
}

/** The answer with its translation, whose segments are the stored text (each answer names its own job: never kept). */
function withTranslation(answer: Omit<TranslateOutput, 'translation'>, t: StoredTranslation): TranslateOutput {
  const { body, ...translation } = t;
  return withTranslationSegments<TranslateOutput>(answer, translation, body);
}

async function storedTranslationOf(deps: Pick<Stores, 'translations'>, job: JobRow): Promise<StoredTranslation> {
  const ref = job.result;
  const translation =
    ref?.kind === 'translation' ? await deps.translations.read(ref.videoId, ref.sourceLang, ref.targetLang) : null;
  if (!translation) throw new ServiceError('INTERNAL_ERROR', `Job ${job.id} succeeded but its translation is missing`);
  return translation;
}

/** The stored translation a succeeded job points at, as values (nested in a job's answer). */
export async function translationOf(deps: Pick<Stores, 'translations'>, job: JobRow): Promise<TranslatedTranscript> {
  const { body, ...translation } = await storedTranslationOf(deps, job);
  return { ...translation, segments: JSON.parse(body) as TranslatedTranscript['segments'] };
}
