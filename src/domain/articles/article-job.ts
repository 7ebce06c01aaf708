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
import type { ArticleJob } from '../work-queue.ts';
import { generateArticle } from './generate-article.ts';
import type { ArticleSearch } from './ports.ts';
import { indexArticle } from './request-article.ts';
import { videoLength } from './transcript-windows.ts';

export interface ArticleJobPorts extends CommitPorts, Pick<Stores, 'articles' | 'transcripts' | 'videos'> {
  llm: Llm | null;
  search: ArticleSearch;
  log: Log;
}

/** generateArticle's map step: one call per 20-minute window past 25 minutes, then one to write the article. */
const WINDOW_SECONDS = 1_200;
const expectedCalls = (duration: number) =>
  duration <= WINDOW_SECONDS * 1.25 ? 1 : Math.ceil(duration / WINDOW_SECONDS) + 1;

/** The worker side of an LLM summary: idempotent (a stored LLM article of the variant ends the job for free). */
export async function runArticleJob(deps: ArticleJobPorts, job: ArticleJob): Promise<{ stored: boolean }> {
  const existing = await deps.articles.find({
    videoId: job.videoId,
    lang: job.lang,
    length: job.length,
    sourceLang: job.sourceLang,
    llmOnly: true,
  });
  if (existing && existing.sourceLang === job.sourceLang) {
    await succeedFree(deps, job.key, { kind: 'summary', articleId: existing.id });
    return { stored: false };
  }
  if (!deps.llm) throw new ServiceError('LLM_NOT_CONFIGURED', 'This worker has no language model configured');
  const transcript = await deps.transcripts.findIn(job.videoId, job.sourceLang);
  if (!transcript)
    throw new ServiceError(
      'TRANSCRIPT_NOT_FOUND',
      `The ${job.sourceLang} transcript of ${job.videoId} is no longer stored`,
    );
  const video = await deps.videos.read(job.videoId);
  const durationSeconds = video?.info.duration ?? 0;

  await assertJobPaid(deps, job.key);
  const progress = progressReporter(deps, job.key);
  progress.report(0, true);
  const calls = expectedCalls(videoLength(transcript.segments, durationSeconds));
  const llm = meteredLlm(deps.llm, (n) => progress.report((0.99 * Math.min(n, calls)) / calls));
  try {
    const { article: draft } = await generateArticle(llm, {
      videoId: job.videoId,
      segments: transcript.segments,
      durationSeconds,
      title: video?.info.title ?? '',
      lang: job.lang,
      length: job.length,
      sourceLang: job.sourceLang,
      chapters: video?.info.chapters ?? [],
      windowSeconds: WINDOW_SECONDS,
    });
    await progress.flush();
    const article = await commitResult(deps, job, async (tx) => {
      const a = await tx.articles.store(draft);
      return { value: a, ref: { kind: 'summary', articleId: a.id } };
    });
    await indexArticle(deps, article);
    return { stored: true };
  } finally {
    await progress.flush();
    await recordUsage(deps, job.jobId, 'summary', llm).catch((err: unknown) =>
      deps.log.warn({ err }, 'llm usage not recorded'),
    );
  }
}
