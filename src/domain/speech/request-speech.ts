// A request for a speech-to-text transcript: served from storage when one exists (free), else a job on the speech
// queue (one per video and language, however many ask), answered at once with the job to poll. The worker
// (speech-job.ts) stores the transcript and charges for it in one transaction.
import type { CallerRequest } from '../keys/caller.ts';
import { assertAffordable } from '../credits/charged-operation.ts';
import { ServiceError, type ErrorCode } from '../errors.ts';
import { speechPrice, SPEECH_PRICE_PER_MINUTE } from '../pricing/prices.ts';
import type { Settings } from '../settings.ts';
import type { Stores } from '../stores.ts';
import { presentPage } from '../transcripts/fetch-transcript.ts';
import type { HotCache } from '../transcripts/hot-cache.ts';
import type { GetTranscriptRequest, TranscriptAnswer } from '../transcripts/schemas.ts';
import { runJob, jobError, type LlmJobPorts } from '../jobs/llm-jobs.ts';
import { presentJob } from '../jobs/job-store.ts';
import { loadVideoForPayer, type PaidLoadPorts } from '../video/paid-load.ts';
import type { Speech } from './ports.ts';

export interface SpeechRequestPorts extends LlmJobPorts, PaidLoadPorts, Pick<Stores, 'transcripts' | 'ledger'> {
  speech: Speech | null;
  hotCache: HotCache;
  config: Pick<Settings, 'REQUEST_WAIT_MS' | 'DAILY_FREE_CREDITS' | 'STT_MAX_SECONDS' | 'FREE_LOOKUPS_PER_10_MIN'>;
}

export const speechKey = (videoId: string, lang: string | null) => `stt:${videoId}:${lang?.toLowerCase() ?? ''}`;

const baseOf = (lang: string) => lang.toLowerCase().split('-')[0]!;

/** The engine, when there is one and it knows `lang`; else `refusal` or the engine's own reason. */
function usableEngine(deps: SpeechRequestPorts, lang: string | null, refusal: ServiceError | undefined) {
  const speech = deps.speech;
  const refuse = (code: ErrorCode, message: string) => refusal ?? new ServiceError(code, message);
  if (!speech)
    throw refuse(
      'STT_NOT_CONFIGURED',
      'Speech-to-text is not available on this server (set STT_BASE_URL, or install pocketsphinx for the local engine)',
    );
  const languages = speech.engine.languages;
  if (lang && languages && !languages.includes(baseOf(lang))) {
    throw (
      refusal ??
      new ServiceError(
        'INVALID_REQUEST',
        `The speech-to-text engine here (${speech.engine.name}) transcribes only ${languages.join(', ')}; "${lang}" is not one of them`,
      )
    );
  }
  return speech;
}

/** The estimated price of transcribing a finished video within STT_MAX_SECONDS, checked against the balance. */
async function affordableEstimate(deps: SpeechRequestPorts, req: CallerRequest, videoId: string): Promise<number> {
  const video = await loadVideoForPayer(
    deps,
    { accountId: req.caller.accountId, requestId: req.requestId },
    videoId,
    SPEECH_PRICE_PER_MINUTE,
  );
  if (video.info.isLive)
    throw new ServiceError('VIDEO_LIVE', 'This video is live now: speech-to-text needs the finished recording');
  if (video.info.duration > deps.config.STT_MAX_SECONDS) {
    throw new ServiceError(
      'MEDIA_TOO_LARGE',
      `The video is ${video.info.duration} s long; this server transcribes at most ${deps.config.STT_MAX_SECONDS} s (STT_MAX_SECONDS). Nothing was charged.`,
    );
  }
  const estimate = speechPrice(video.info.duration);
  await assertAffordable(deps, req.caller.accountId, estimate, deps.config.DAILY_FREE_CREDITS);
  return estimate;
}

/**
 * The speech-to-text transcript of a video (in `lang` when given: a hint to the engine, and the stored language).
 * `refusal` is what a missing or unsuitable engine answers: STT_NOT_CONFIGURED for mode=generate, the captions'
 * own NO_SUBTITLES for mode=auto.
 */
export async function requestSpeech(
  deps: SpeechRequestPorts,
  req: CallerRequest,
  input: GetTranscriptRequest & { videoId: string },
  refusal?: ServiceError,
): Promise<TranscriptAnswer> {
  const { videoId } = input;
  const lang = input.lang ?? null;
  const stored = await presentStored(deps, input, 0);
  if (stored) return stored;
  const speech = usableEngine(deps, lang, refusal);
  const estimate = await affordableEstimate(deps, req, videoId);

  const key = speechKey(videoId, lang);
  const job = await runJob(deps, req, {
    kind: 'transcription',
    input: { videoId, lang },
    key,
    // Speech-to-text always answers with its job: nobody waits minutes on an open request.
    enqueue: (jobId) =>
      deps.workQueue.speech({ kind: 'speech', key, jobId, videoId, lang }, key, 0, req.caller.accountId),
    // The estimate is held; the worker settles what the decoded audio costs (speech-budget.ts bounds it).
    charge: {
      amount: estimate,
      operation: 'speech',
      videoId,
      queue: 'speech',
      dailyAllowance: deps.config.DAILY_FREE_CREDITS,
    },
  });
  if (job.status === 'failed') throw jobError(job);
  if (job.status === 'succeeded') {
    const done = await presentStored(deps, input, job.creditsCharged);
    if (!done) throw new ServiceError('INTERNAL_ERROR', `Job ${job.id} succeeded but its transcript is missing`);
    return done;
  }
  return {
    status: job.status,
    videoId,
    requestedLang: lang,
    source: 'speech-to-text',
    engine: speech.engine.name,
    model: speech.engine.model,
    estimatedCredits: estimate,
    cached: false,
    creditsCharged: 0,
    job: presentJob(job),
  };
}

/** The stored speech-to-text transcript a request asks for, as a page of it; null when there is none. */
async function presentStored(
  deps: Pick<SpeechRequestPorts, 'transcripts' | 'hotCache' | 'videos'>,
  input: GetTranscriptRequest & { videoId: string },
  charged: number,
) {
  const lang = input.lang ?? null;
  const stored = await deps.transcripts.findSpeech(input.videoId, lang);
  if (!stored) return null;
  const t =
    deps.hotCache.getTranscript(input.videoId, stored.lang, 'speech') ??
    deps.hotCache.setTranscript(input.videoId, stored);
  const matchedBy = !lang ? 'default' : stored.lang.toLowerCase() === lang.toLowerCase() ? 'exact' : 'base';
  // Chapters from the stored video (a speech-to-text request has loaded it): no lookup for them.
  const video = input.chapters ? await deps.videos.read(input.videoId) : null;
  return presentPage(input.videoId, lang, matchedBy, t, charged === 0, charged, input, video?.info);
}
