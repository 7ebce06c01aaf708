import type { CallerRequest } from '../keys/caller.ts';
import { assertAffordable, commitCharged } from '../credits/charged-operation.ts';
import { ServiceError } from '../errors.ts';
import type { Llm, Log, SourceVideo } from '../ports.ts';
import { hourlyPrice, PER_STARTED_HOUR, pricedDuration, TRANSCRIPT_PRICE } from '../pricing/prices.ts';
import type { Stores, Transaction } from '../stores.ts';
import { fetchTranscript, type TranscriptPorts } from '../transcripts/fetch-transcript.ts';
import { originOf } from '../transcripts/transcript-store.ts';
import { remainingWait, runLlmJob, jobError, type LlmJobPorts } from '../jobs/llm-jobs.ts';
import { presentJob, type JobRow } from '../jobs/job-store.ts';
import { normalizeLang } from '../translations/normalize-lang.ts';
import { chooseTranscriptTrack } from '../video/choose-track.ts';
import { loadVideoForPayer } from '../video/paid-load.ts';
import type { Segment } from '../video/schemas.ts';
import { isMediaId, parseVideoRef } from '../video/video-ref.ts';
import { assertOwnsVideo } from '../video/media-owner.ts';
import { extractiveArticle } from './extractive-summary.ts';
import type { Article } from './schemas.ts';
import type { ArticleSearch } from './ports.ts';
import type { RequestArticleInput, RequestArticleOutput } from './request-article-schemas.ts';

export interface RequestArticlePorts extends TranscriptPorts, LlmJobPorts, IndexPorts {
  llm: Llm | null;
  transaction: Transaction;
}

interface IndexPorts {
  search: ArticleSearch;
  log: Log;
}

const articleKey = (videoId: string, lang: string, length: string, sourceLang: string) =>
  `art:${videoId}:${lang}:${length}:${sourceLang}`;

interface SourceTranscript {
  lang: string;
  segments: Segment[];
  duration: number;
  /** Credits the extraction cost this request (0 when it was stored). */
  charged: number;
}

/** What an article to write is made from, once the transcript is known and the price set. */
interface ArticlePlan {
  videoId: string;
  lang: string;
  length: NonNullable<RequestArticleInput['length']>;
  video: SourceVideo;
  transcript: SourceTranscript;
  price: number;
  jobInput: Record<string, unknown>;
}

/** Without an LLM: the extractive article, written here and stored with its charge and its succeeded job. */
async function writeExtractive(
  deps: RequestArticlePorts,
  req: CallerRequest,
  plan: ArticlePlan,
): Promise<RequestArticleOutput> {
  const { videoId, length, video, transcript, price, jobInput } = plan;
  const draft = extractiveArticle({
    videoId,
    segments: transcript.segments,
    durationSeconds: video.info.duration,
    title: video.info.title,
    length,
    sourceLang: transcript.lang,
    chapters: video.info.chapters,
  });
  const { article, job } = await commitCharged(
    deps.transaction,
    { accountId: req.caller.accountId, amount: price, operation: 'summary', videoId, requestId: req.requestId },
    deps.config.DAILY_FREE_CREDITS,
    async (tx) => {
      const article = await tx.articles.store(draft);
      const job = await tx.jobs.create({
        accountId: req.caller.accountId,
        kind: 'summary',
        input: jobInput,
        requestId: req.requestId,
        status: 'succeeded',
        result: { kind: 'summary', articleId: article.id },
        creditsCharged: price,
      });
      return { article, job };
    },
  );
  await indexArticle(deps, article);
  return {
    status: 'succeeded',
    cached: false,
    creditsCharged: transcript.charged + price,
    job: presentJob(job),
    article,
  };
}

/** With an LLM: a job on the `llm` queue, waited for up to what is left of REQUEST_WAIT_MS. */
async function writeWithLlm(
  deps: RequestArticlePorts,
  req: CallerRequest,
  plan: ArticlePlan,
  startedAt: number,
): Promise<RequestArticleOutput> {
  const { videoId, lang, length, transcript, price, jobInput } = plan;
  const key = articleKey(videoId, lang, length, transcript.lang);
  const row = await runLlmJob(deps, req, {
    kind: 'summary',
    input: jobInput,
    key,
    job: (jobId) => ({ kind: 'summary', key, jobId, videoId, price, lang, length, sourceLang: transcript.lang }),
    waitMs: remainingWait(deps, startedAt),
    charge: {
      amount: price,
      operation: 'summary',
      videoId,
      queue: 'llm',
      dailyAllowance: deps.config.DAILY_FREE_CREDITS,
    },
  });
  if (row.status === 'failed') throw jobError(row);
  const job = presentJob(row);
  if (row.status !== 'succeeded') return { status: row.status, cached: false, creditsCharged: transcript.charged, job };
  return {
    status: 'succeeded',
    cached: false,
    creditsCharged: transcript.charged + row.creditsCharged,
    job,
    article: await articleOf(deps, row),
  };
}

/**
 * A structured article about a video in `lang`. Stored articles answer for free (an extractive one is upgraded
 * when an LLM is configured). Otherwise: the transcript (stored, or extracted and charged as subtitles), then the
 * article, charged hourlyPrice (prices.ts) when stored: inline by the extractive generator without an
 * LLM, else as a job on the `llm` queue waited for up to REQUEST_WAIT_MS.
 */
export async function requestArticle(
  deps: RequestArticlePorts,
  req: CallerRequest,
  input: RequestArticleInput,
): Promise<RequestArticleOutput> {
  const startedAt = Date.now();
  const videoId = parseVideoRef(input);
  await assertOwnsVideo(deps.videos, req.caller.accountId, videoId);
  const lang = normalizeLang(input.lang);
  const length = input.length ?? 'medium';
  const sourceLang = input.sourceLang ? normalizeLang(input.sourceLang) : null;
  const llmOnly = deps.llm !== null;

  const stored = await deps.articles.find({ videoId, lang, length, sourceLang, llmOnly });
  if (stored) return cachedAnswer(deps, req, stored, 0);

  // Stored metadata of any age will do for title, chapters and duration (they rarely change) and keeps YouTube
  // out of the way; a video never seen is loaded (free, through the extraction queue).
  const video =
    (await deps.videos.read(videoId)) ??
    (await loadVideoForPayer(
      deps,
      { accountId: req.caller.accountId, requestId: req.requestId },
      videoId,
      PER_STARTED_HOUR,
    ));
  const transcript = await sourceTranscript(deps, req, videoId, sourceLang, lang, video);
  const price = hourlyPrice(pricedDuration(video.info.duration, transcript.duration));
  // The extractive generator cannot translate: its article is in the transcript's language.
  const articleLang = deps.llm ? lang : transcript.lang;
  const jobInput = { videoId, lang: articleLang, length, sourceLang, resolvedSourceLang: transcript.lang };

  const again = await deps.articles.find({ videoId, lang: articleLang, length, sourceLang: transcript.lang, llmOnly });
  if (again) return cachedAnswer(deps, req, again, transcript.charged);
  await assertAffordable(deps, req.caller.accountId, price, deps.config.DAILY_FREE_CREDITS);

  const plan: ArticlePlan = { videoId, lang, length, video, transcript, price, jobInput };
  return deps.llm ? writeWithLlm(deps, req, plan, startedAt) : writeExtractive(deps, req, plan);
}

/**
 * The transcript to summarize: a stored one in sourceLang (or lang) first; else the track YouTube has in that
 * language (or, without sourceLang, the video's default track), free when stored, else extracted for TRANSCRIPT_PRICE.
 * The 402 for extraction plus summary comes before anything is extracted.
 */
async function sourceTranscript(
  deps: RequestArticlePorts,
  req: CallerRequest,
  videoId: string,
  sourceLang: string | null,
  lang: string,
  video: SourceVideo,
): Promise<SourceTranscript> {
  const found = await deps.transcripts.findIn(videoId, sourceLang ?? lang);
  if (found) return { lang: found.lang, segments: found.segments, duration: found.duration, charged: 0 };
  // No captions at all: a speech-to-text transcript made before (POST /subtitles) in whatever language it is.
  const speech = video.tracks.length === 0 ? await deps.transcripts.findSpeech(videoId, sourceLang) : null;
  if (speech)
    return { lang: speech.lang, segments: JSON.parse(speech.body) as Segment[], duration: speech.duration, charged: 0 };

  let track;
  try {
    track = chooseTranscriptTrack(video, sourceLang ?? lang).track;
  } catch (err) {
    if (sourceLang || !(err instanceof ServiceError) || err.code !== 'NO_SUBTITLES') throw err;
    track = chooseTranscriptTrack(video, null).track;
  }
  const stored = await deps.transcripts.read(videoId, track.lang, originOf(track.autoGenerated));
  if (stored)
    return { lang: stored.lang, segments: JSON.parse(stored.body) as Segment[], duration: stored.duration, charged: 0 };

  await assertAffordable(
    deps,
    req.caller.accountId,
    TRANSCRIPT_PRICE + hourlyPrice(video.info.duration),
    deps.config.DAILY_FREE_CREDITS,
  );
  const t = await fetchTranscript(deps, req, { videoId, lang: track.lang });
  return {
    lang: t.lang,
    segments: t.segments,
    duration: t.duration,
    charged: t.creditsCharged,
  };
}

async function cachedAnswer(
  deps: Pick<Stores, 'jobs'>,
  req: CallerRequest,
  article: Article,
  charged: number,
): Promise<RequestArticleOutput> {
  const job = await deps.jobs.create({
    accountId: req.caller.accountId,
    kind: 'summary',
    input: {
      videoId: article.videoId,
      lang: article.lang,
      length: article.length,
      resolvedSourceLang: article.sourceLang,
    },
    requestId: req.requestId,
    status: 'succeeded',
    result: { kind: 'summary', articleId: article.id },
  });
  return { status: 'succeeded', cached: charged === 0, creditsCharged: charged, job: presentJob(job), article };
}

/** The stored article a succeeded job points at. */
export async function articleOf(deps: Pick<Stores, 'articles'>, job: JobRow): Promise<Article> {
  const ref = job.result;
  const article = ref?.kind === 'summary' ? await deps.articles.read(ref.articleId) : null;
  if (!article) throw new ServiceError('INTERNAL_ERROR', `Job ${job.id} succeeded but its article is missing`);
  return article;
}

/**
 * Adds the article to the search backend. The Postgres backend indexes on insert (generated column); a failing
 * external index must not lose an article that is stored and paid for, so the failure is logged.
 */
export async function indexArticle(deps: IndexPorts, article: Article): Promise<void> {
  // Articles of direct media URLs are their account's alone: never in the search everyone reads.
  if (isMediaId(article.videoId)) return;
  await deps.search
    .index(article)
    .catch((err: unknown) => deps.log.warn({ err, articleId: article.id }, 'article not indexed'));
}
