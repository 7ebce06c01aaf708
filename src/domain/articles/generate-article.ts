import { z } from 'zod';
import { ServiceError } from '../errors.ts';
import type { Llm, LlmUsage } from '../ports.ts';
import { mapLimit } from '../map-limit.ts';
import type { Chapter, Segment } from '../video/schemas.ts';
import { ARTICLE_LENGTHS, ArticleCategory, ArticleSection, type ArticleDraft, type ArticleLength } from './schemas.ts';
import { fixSections, timedText, videoLength, windowsByTime, type TimeWindow } from './transcript-windows.ts';

export interface GenerateArticleInput {
  videoId: string;
  segments: readonly Segment[];
  durationSeconds: number;
  title: string;
  /** Language to write in. */
  lang: string;
  length: ArticleLength;
  sourceLang: string;
  chapters?: readonly Chapter[];
  /** Transcript per map step for long videos; 20 minutes keeps each prompt around 5-8k tokens. */
  windowSeconds?: number;
  concurrency?: number;
  /** Asks of the final step when its sections are unusable. */
  maxAttempts?: number;
  signal?: AbortSignal;
}

const LlmArticle = z.object({
  title: z.string(),
  summary: z.string(),
  sections: z.array(ArticleSection),
  keyPoints: z.array(z.string()),
  tags: z.array(z.string()),
  category: ArticleCategory,
});

const WindowNotes = z.object({
  notes: z.array(z.object({ start: z.number(), end: z.number(), text: z.string() })),
});

const MAX_TOKENS: Record<ArticleLength, number> = { short: 3_000, medium: 6_000, long: 16_000 };

function lengthBrief(length: ArticleLength, duration: number, chapters: readonly Chapter[]): string {
  const spec = ARTICLE_LENGTHS[length];
  // The video's chapters are the article's sections at every length; a shorter article says less under each.
  const sections =
    chapters.length >= 2
      ? `one section per chapter (${chapters.length} chapters), headed by the chapter's title and spanning the chapter, from its start to the next chapter's start`
      : length === 'long'
        ? `about one section per 5 minutes (${Math.max(4, Math.round(duration / 300))} sections)`
        : `${spec.minSections}-${spec.maxSections} sections`;
  return `Length: a summary of about ${spec.summaryWords} words, ${sections}, ${spec.keyPoints} key points, 3-8 tags.`;
}

const systemFor = (lang: string) =>
  `You write clear, faithful articles from video transcripts. Write in language "${lang}". ` +
  'Use only what the transcript says. Times are seconds from the start of the video, taken from the [t=...] marks.';

/** Map step: dense timestamped notes for one window of a long video. */
async function notesFor(llm: Llm, w: TimeWindow, input: GenerateArticleInput, usage: LlmUsage, signal: AbortSignal) {
  if (!w.segments.length) return [];
  const { value, usage: u } = await llm.generate({
    system: systemFor(input.lang),
    prompt:
      `Video "${input.title}", part from t=${Math.floor(w.start)} to t=${Math.ceil(w.end)}. ` +
      'List the main points of this part in order, each with the start and end (seconds) it covers and 1-3 ' +
      `sentences of content.\n\nTranscript (${input.sourceLang}):\n${timedText(w.segments)}`,
    schema: WindowNotes,
    maxTokens: 3_000,
    signal,
  });
  add(usage, u);
  return value.notes;
}

const add = (a: LlmUsage, b: LlmUsage) => {
  a.inputTokens += b.inputTokens;
  a.outputTokens += b.outputTokens;
};

/** What the article is written from: the timed transcript, or for a long video notes written window by window. */
async function materialFor(llm: Llm, input: GenerateArticleInput, duration: number, usage: LlmUsage): Promise<string> {
  const windowSeconds = input.windowSeconds ?? 1_200;
  if (duration <= windowSeconds * 1.25) return `Transcript (${input.sourceLang}):\n${timedText(input.segments)}`;
  const windows = windowsByTime(input.segments, duration, windowSeconds);
  const notes = await mapLimit(
    windows,
    input.concurrency ?? 3,
    (w, _i, signal) => notesFor(llm, w, input, usage, signal),
    input.signal,
  );
  return (
    'Notes on the whole video, in order (times in seconds):\n' +
    notes
      .flat()
      .map((n) => `[t=${Math.floor(n.start)}-${Math.ceil(n.end)}] ${n.text}`)
      .join('\n')
  );
}

/** The prompt: the video's title, length and chapters, the length's brief, the sections' rules, then the material. */
function articlePrompt(input: GenerateArticleInput, duration: number, material: string): string {
  const chapters = input.chapters ?? [];
  const chapterList = chapters.length
    ? `\nChapters: ${chapters.map((c) => `[t=${Math.floor(c.start)}] ${c.title}`).join('; ')}`
    : '';
  return (
    `Write an article about the video "${input.title}" (${Math.round(duration)} seconds long).${chapterList}\n` +
    `${lengthBrief(input.length, duration, chapters)} Sections are in video order; each has a heading, ` +
    `start and end in seconds within 0-${Math.ceil(duration)}, and prose text. ` +
    `Category is one of: ${ArticleCategory.options.join(', ')}.\n\n${material}`
  );
}

/**
 * Writes an article with the LLM. Videos longer than one window are summarized window by window (bounded
 * parallelism), then one call writes the article from those notes, so a 3-hour video fits. Sections are
 * clamped to the video and sorted; an answer with no usable section is re-asked, then LLM_FAILED.
 */
export async function generateArticle(
  llm: Llm,
  input: GenerateArticleInput,
): Promise<{ article: ArticleDraft; usage: LlmUsage }> {
  const usage: LlmUsage = { inputTokens: 0, outputTokens: 0 };
  const duration = videoLength(input.segments, input.durationSeconds);
  if (!input.segments.length) throw new ServiceError('INVALID_REQUEST', 'The transcript is empty');
  const base = articlePrompt(input, duration, await materialFor(llm, input, duration, usage));

  const attempts = Math.max(1, input.maxAttempts ?? 2);
  for (let n = 1; n <= attempts; n++) {
    const prompt = n === 1 ? base : `${base}\n\nYour previous answer had no usable sections: include them.`;
    const { value, usage: u } = await llm.generate({
      system: systemFor(input.lang),
      prompt,
      schema: LlmArticle,
      maxTokens: MAX_TOKENS[input.length],
      signal: input.signal,
    });
    add(usage, u);
    const sections = fixSections(value.sections, duration);
    if (!sections.length || !value.title.trim()) continue;
    const article: ArticleDraft = {
      videoId: input.videoId,
      lang: input.lang,
      length: input.length,
      sourceLang: input.sourceLang,
      title: value.title.trim(),
      summary: value.summary.trim(),
      sections,
      keyPoints: value.keyPoints.map((k) => k.trim()).filter(Boolean),
      tags: [...new Set(value.tags.map((t) => t.trim().toLowerCase()).filter(Boolean))].slice(0, 12),
      category: value.category,
      generator: { kind: 'llm', model: llm.model },
    };
    return { article, usage };
  }
  throw new ServiceError('LLM_FAILED', `The article answer had no usable sections after ${attempts} attempts`);
}
