import type { Deps } from '../../deps.ts';
import { extractiveArticle } from '../articles/extractive-summary.ts';
import type { Article } from '../articles/schemas.ts';
import { findArticle, readArticle, storeArticle } from '../articles/store-article.ts';
import { assertAffordable, commitCharged } from '../credits/charged-operation.ts';
import { ServiceError } from '../errors.ts';
import { remainingWait, runLlmTask, taskError, type WorkRequest } from '../jobs/llm-jobs.ts';
import { hourlyPrice, pricedDuration } from '../jobs/price.ts';
import { createTask, presentTask, type TaskRow } from '../jobs/task-store.ts';
import { fetchTranscript, SUBTITLES_PRICE } from '../subtitles/fetch-transcript.ts';
import { findTranscriptIn, originOf, readTranscript } from '../subtitles/transcript-store.ts';
import { normalizeLang } from '../translations/normalize-lang.ts';
import { chooseTranscriptTrack } from '../video/choose-track.ts';
import { loadVideo } from '../video/load-video.ts';
import type { SourceVideo } from '../ports.ts';
import type { Segment } from '../video/schemas.ts';
import { parseVideoRef } from '../video/video-ref.ts';
import { readStoredVideo } from '../video/video-store.ts';
import type { SummarizeInput, SummarizeOutput } from './schemas.ts';

export const summaryKey = (videoId: string, lang: string, length: string, sourceLang: string) => `art:${videoId}:${lang}:${length}:${sourceLang}`;

interface SourceTranscript {
  lang: string;
  segments: Segment[];
  duration: number;
  /** Credits the extraction cost this request (0 when it was stored). */
  charged: number;
}

/**
 * A structured article about a video in `lang`. Stored articles answer for free (an extractive one is upgraded
 * when an LLM is configured). Otherwise: the transcript (stored, or extracted and charged as subtitles), then the
 * article, charged 1 credit per started hour of video when stored: inline by the extractive generator without an
 * LLM, else as a job on the `llm` queue waited for up to REQUEST_WAIT_MS.
 */
export async function requestSummary(deps: Deps, req: WorkRequest, input: SummarizeInput): Promise<SummarizeOutput> {
  const startedAt = Date.now();
  const videoId = parseVideoRef(input);
  const lang = normalizeLang(input.lang);
  const length = input.length ?? 'medium';
  const sourceLang = input.sourceLang ? normalizeLang(input.sourceLang) : null;
  const llmOnly = deps.llm !== null;

  const stored = await findArticle(deps.sql, { videoId, lang, length, sourceLang, llmOnly });
  if (stored) return cachedAnswer(deps, req, stored, 0);

  // Stored metadata of any age will do for title, chapters and duration (they rarely change) and keeps YouTube
  // out of the way; a video never seen is loaded (free, through the extraction queue).
  const video = (await readStoredVideo(deps.sql, videoId)) ?? (await loadVideo(deps, videoId));
  const transcript = await sourceTranscript(deps, req, videoId, sourceLang, lang, video);
  const price = hourlyPrice(pricedDuration(video.info.duration, transcript.duration));
  // The extractive generator cannot translate: its article is in the transcript's language.
  const articleLang = deps.llm ? lang : transcript.lang;
  const taskInput = { videoId, lang: articleLang, length, sourceLang, resolvedSourceLang: transcript.lang };

  const again = await findArticle(deps.sql, { videoId, lang: articleLang, length, sourceLang: transcript.lang, llmOnly });
  if (again) return cachedAnswer(deps, req, again, transcript.charged);
  await assertAffordable(deps.sql, req.caller.accountId, price, deps.config.DAILY_FREE_CREDITS);

  if (!deps.llm) {
    const draft = extractiveArticle({
      videoId,
      segments: transcript.segments,
      durationSeconds: video.info.duration,
      title: video.info.title,
      length,
      sourceLang: transcript.lang,
      chapters: video.info.chapters,
    });
    const { article, task } = await commitCharged(
      deps.sql,
      { accountId: req.caller.accountId, amount: price, operation: 'summary', videoId, requestId: req.requestId },
      deps.config.DAILY_FREE_CREDITS,
      async (tx) => {
        const article = await storeArticle(tx, draft);
        const task = await createTask(tx, {
          accountId: req.caller.accountId,
          kind: 'summary',
          input: taskInput,
          requestId: req.requestId,
          status: 'succeeded',
          result: { kind: 'summary', articleId: article.id },
          creditsCharged: price,
        });
        return { article, task };
      },
    );
    await indexArticle(deps, article);
    return { status: 'succeeded', cached: false, creditsCharged: transcript.charged + price, job: presentTask(task), article };
  }

  const key = summaryKey(videoId, lang, length, transcript.lang);
  const task = await runLlmTask(deps, req, {
    kind: 'summary',
    input: taskInput,
    key,
    job: (taskId) => ({ kind: 'summary', key, taskId, videoId, price, lang, length, sourceLang: transcript.lang }),
    waitMs: remainingWait(deps, startedAt),
  });
  if (task.status === 'failed') throw taskError(task);
  const job = presentTask(task);
  if (task.status !== 'succeeded') return { status: task.status, cached: false, creditsCharged: transcript.charged, job };
  return { status: 'succeeded', cached: false, creditsCharged: transcript.charged + task.creditsCharged, job, article: await articleOf(deps, task) };
}

/**
 * The transcript to summarize: a stored one in sourceLang (or lang) first; else the track YouTube has in that
 * language (or, without sourceLang, the video's default track), free when stored, else extracted for 2 credits.
 * The 402 for extraction plus summary comes before anything is extracted.
 */
async function sourceTranscript(
  deps: Deps,
  req: WorkRequest,
  videoId: string,
  sourceLang: string | null,
  lang: string,
  video: SourceVideo,
): Promise<SourceTranscript> {
  const found = await findTranscriptIn(deps.sql, videoId, sourceLang ?? lang);
  if (found) return { lang: found.lang, segments: found.segments, duration: found.duration, charged: 0 };

  let track;
  try {
    track = chooseTranscriptTrack(video, sourceLang ?? lang).track;
  } catch (err) {
    if (sourceLang || !(err instanceof ServiceError) || err.code !== 'NO_SUBTITLES') throw err;
    track = chooseTranscriptTrack(video, null).track;
  }
  const stored = await readTranscript(deps.sql, videoId, track.lang, originOf(track.autoGenerated));
  if (stored) return { lang: stored.lang, segments: JSON.parse(stored.body) as Segment[], duration: stored.duration, charged: 0 };

  await assertAffordable(deps.sql, req.caller.accountId, SUBTITLES_PRICE + hourlyPrice(video.info.duration), deps.config.DAILY_FREE_CREDITS);
  const t = await fetchTranscript(deps, req, { videoId, lang: track.lang });
  return { lang: t.lang, segments: t.segments, duration: t.duration, charged: t.creditsCharged };
}

async function cachedAnswer(deps: Deps, req: WorkRequest, article: Article, charged: number): Promise<SummarizeOutput> {
  const task = await createTask(deps.sql, {
    accountId: req.caller.accountId,
    kind: 'summary',
    input: { videoId: article.videoId, lang: article.lang, length: article.length, resolvedSourceLang: article.sourceLang },
    requestId: req.requestId,
    status: 'succeeded',
    result: { kind: 'summary', articleId: article.id },
  });
  return { status: 'succeeded', cached: charged === 0, creditsCharged: charged, job: presentTask(task), article };
}

/** The stored article a succeeded task points at. */
export async function articleOf(deps: Deps, task: TaskRow): Promise<Article> {
  const ref = task.result;
  const article = ref?.kind === 'summary' ? await readArticle(deps.sql, ref.articleId) : null;
  if (!article) throw new ServiceError('INTERNAL_ERROR', `Task ${task.id} succeeded but its article is missing`);
  return article;
}

/**
 * Adds the article to the search backend. The Postgres backend indexes on insert (generated column); a failing
 * external index must not lose an article that is stored and paid for, so the failure is logged.
 */
export async function indexArticle(deps: Deps, article: Article): Promise<void> {
  await deps.search.index(article).catch((err: unknown) => deps.log.warn({ err, articleId: article.id }, 'article not indexed'));
}
