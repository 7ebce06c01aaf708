// An article without an LLM: sentences picked from the transcript by word-frequency scoring. Used when no LLM is
// configured, and as a cheap tier. It cannot translate: the article is in the transcript's language.
import type { Chapter, Segment } from '../video/schemas.ts';
import { guessCategory } from './guess-category.ts';
import { ARTICLE_LENGTHS, type ArticleDraft, type ArticleLength } from './schemas.ts';
import { contentWords } from './stopwords.ts';
import { fixSections, videoLength, windowsByChapters, windowsByTime, type TimeWindow } from './transcript-windows.ts';

export interface ExtractiveInput {
  videoId: string;
  segments: readonly Segment[];
  durationSeconds: number;
  title: string;
  length: ArticleLength;
  sourceLang: string;
  chapters?: readonly Chapter[];
}

interface Unit {
  start: number;
  text: string;
  words: string[];
  section: number;
  score: number;
}

const SENTENCE_END = /[.!?。！？…]["')\]]?$/;
/** ASR tracks have no punctuation: cut a "sentence" after this many words anyway. */
const MAX_UNIT_WORDS = 30;
const PICKS_PER_SECTION: Record<ArticleLength, number> = { short: 2, medium: 3, long: 4 };

function sectionWindows(input: ExtractiveInput, duration: number): TimeWindow[] {
  const spec = ARTICLE_LENGTHS[input.length];
  // The video's chapters are its sections, at every length (a short article says less under each).
  const byChapter = windowsByChapters(input.segments, duration, input.chapters ?? []);
  if (byChapter.length) return byChapter;
  const fiveMinutes = Math.round(duration / 300);
  const count = Math.min(spec.maxSections, Math.max(spec.minSections, fiveMinutes));
  return windowsByTime(input.segments, duration, duration / count);
}

function toUnits(windows: readonly TimeWindow[]): Unit[] {
  const units: Unit[] = [];
  windows.forEach((w, section) => {
    let text = '';
    let start = 0;
    const flush = () => {
      const clean = text.replace(/\s+/g, ' ').trim();
      if (clean) units.push({ start, text: clean, words: contentWords(clean), section, score: 0 });
      text = '';
    };
    for (const s of w.segments) {
      if (!text) start = s.start;
      text += ` ${s.text}`;
      if (SENTENCE_END.test(s.text.trim()) || text.split(/\s+/).length >= MAX_UNIT_WORDS) flush();
    }
    flush();
  });
  return units;
}

const capitalize = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
const byStart = (a: Unit, b: Unit) => a.start - b.start;
const topBy = <T>(items: Iterable<T>, n: number, key: (t: T) => number) =>
  [...items].sort((a, b) => key(b) - key(a)).slice(0, n);

type Window = ReturnType<typeof sectionWindows>[number];
type Counts = Map<string, number>;

/** Term frequency over the transcript; document frequency over sections (the "documents" of TF-IDF). */
function termCounts(windows: Window[], units: Unit[]) {
  const tf = new Map<string, number>();
  const df = new Map<string, number>();
  const sectionTf = windows.map(() => new Map<string, number>());
  for (const u of units) {
    for (const w of u.words) {
      tf.set(w, (tf.get(w) ?? 0) + 1);
      const st = sectionTf[u.section] as Map<string, number>;
      if (!st.has(w)) df.set(w, (df.get(w) ?? 0) + 1);
      st.set(w, (st.get(w) ?? 0) + 1);
    }
  }
  const idf = (w: string) => Math.log(1 + windows.length / (df.get(w) ?? 1));
  return { tf, sectionTf, idf };
}

/** Topic words (frequent overall) and section-specific words both count; long units don't win by length alone. */
function scoreUnits(units: Unit[], tf: Counts, idf: (w: string) => number): void {
  for (const u of units) {
    const distinct = new Set(u.words);
    let sum = 0;
    for (const w of distinct) sum += Math.log(1 + (tf.get(w) ?? 0)) * (0.5 + idf(w));
    u.score = distinct.size >= 3 ? sum / Math.sqrt(u.words.length + 1) : 0;
  }
}

/** Each window's best units in time order, headed by its chapter title or its three most telling terms. */
function pickSections(
  input: ExtractiveInput,
  windows: Window[],
  units: Unit[],
  sectionTf: Counts[],
  idf: (w: string) => number,
) {
  const spec = ARTICLE_LENGTHS[input.length];
  // Many chapters share the length's budget of sentences; each keeps at least one.
  const budget = spec.maxSections * PICKS_PER_SECTION[input.length];
  const picks = Math.max(1, Math.min(PICKS_PER_SECTION[input.length], Math.floor(budget / windows.length)));
  return windows.map((w, k) => {
    const own = units.filter((u) => u.section === k && u.score > 0);
    const picked = topBy(own, picks, (u) => u.score).sort(byStart);
    const terms = topBy(sectionTf[k] ?? new Map<string, number>(), 3, ([t, n]) => n * idf(t)).map(([t]) => t);
    return {
      heading: w.title ?? (terms.length ? terms.map(capitalize).join(', ') : `Part ${k + 1}`),
      start: w.start,
      end: w.end,
      text: picked.map((u) => u.text).join(' '),
    };
  });
}

/** The best-scored units up to the length's word budget. */
function summaryUnitsOf(ranked: Unit[], summaryWords: number): Unit[] {
  const summaryUnits: Unit[] = [];
  let words = 0;
  for (const u of ranked) {
    if (words >= summaryWords) break;
    summaryUnits.push(u);
    words += u.text.split(/\s+/).length;
  }
  return summaryUnits;
}

export function extractiveArticle(input: ExtractiveInput): ArticleDraft {
  const spec = ARTICLE_LENGTHS[input.length];
  const duration = videoLength(input.segments, input.durationSeconds);
  const windows = sectionWindows(input, duration);
  const units = toUnits(windows);
  const { tf, sectionTf, idf } = termCounts(windows, units);
  scoreUnits(units, tf, idf);
  const sections = pickSections(input, windows, units, sectionTf, idf);

  const ranked = units.filter((u) => u.score > 0).sort((a, b) => b.score - a.score);
  const summaryUnits = summaryUnitsOf(ranked, spec.summaryWords);
  const clip = (s: string) => (s.length > 200 ? `${s.slice(0, 197).trimEnd()}...` : s);

  return {
    videoId: input.videoId,
    lang: input.sourceLang,
    length: input.length,
    sourceLang: input.sourceLang,
    title: input.title.trim() || 'Untitled video',
    summary: summaryUnits
      .sort(byStart)
      .map((u) => u.text)
      .join(' '),
    sections: fixSections(
      sections.filter((s) => s.text || s.heading),
      duration,
    ),
    keyPoints: ranked
      .slice(0, spec.keyPoints)
      .sort(byStart)
      .map((u) => clip(u.text)),
    tags: topBy(tf, 8, ([, n]) => n)
      .filter(([, n]) => n > 1)
      .map(([t]) => t),
    category: guessCategory(tf, contentWords(input.title)),
    generator: { kind: 'extractive' },
  };
}
