import { z } from 'zod';
import { ServiceError } from '../errors.ts';
import type { Llm, LlmUsage } from '../ports.ts';
import type { Segment } from '../video/schemas.ts';
import { chunkSegments, type ChunkOptions, type SegmentChunk } from './chunk-segments.ts';
import { mapLimit } from '../map-limit.ts';

/** What the model answers per chunk: one entry per numbered segment, numbered as in the prompt (1..n). */
const ChunkTranslation = z.object({
  translations: z.array(z.object({ i: z.number().int(), text: z.string() })),
});
type ChunkTranslation = z.infer<typeof ChunkTranslation>;

export interface TranslateOptions {
  sourceLang: string;
  targetLang: string;
  /** Chunks in flight at once. */
  concurrency: number;
  /** Asks per chunk (first ask included) before giving up on a misaligned answer. */
  maxAttempts: number;
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
  chunk?: ChunkOptions;
}

const SYSTEM = [
  'You translate video subtitles. Each numbered line is one subtitle cue.',
  'Return exactly one entry per numbered line, with the same number i, in order.',
  "Never merge, split, skip or reorder cues, even when a sentence spans several cues: keep each cue's part of",
  'the meaning in that cue. Lines marked as context are there to help you; do not translate them.',
  'Keep sound labels like [Music] as labels in the target language. Answer only with the JSON object.',
].join(' ');

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

function buildChunkPrompt(chunk: SegmentChunk, sourceLang: string, targetLang: string): string {
  const lines = [`Translate from ${sourceLang} to ${targetLang}.`, ''];
  if (chunk.before.length) {
    lines.push('Context before (do not translate):', ...chunk.before.map((s) => `> ${oneLine(s.text)}`), '');
  }
  lines.push(`Cues to translate (${chunk.segments.length}):`);
  for (const [k, s] of chunk.segments.entries()) lines.push(`[${k + 1}] ${oneLine(s.text)}`);
  if (chunk.after.length) {
    lines.push('', 'Context after (do not translate):', ...chunk.after.map((s) => `> ${oneLine(s.text)}`));
  }
  return lines.join('\n');
}

/** Why an answer does not line up with the chunk, or null when it does (entries may come in any order). */
function misalignment(chunk: SegmentChunk, answer: ChunkTranslation): string | null {
  const n = chunk.segments.length;
  const seen = new Set<number>();
  for (const t of answer.translations) {
    if (t.i < 1 || t.i > n) return `entry ${t.i} is not a cue number (1..${n})`;
    if (seen.has(t.i)) return `cue ${t.i} answered twice`;
    seen.add(t.i);
    // An empty translation of a non-empty cue is what a merge into the previous cue looks like.
    if (!t.text.trim() && (chunk.segments[t.i - 1] as Segment).text.trim()) return `cue ${t.i} is empty`;
  }
  if (seen.size !== n) return `${n - seen.size} of ${n} cues missing`;
  return null;
}

/** Output budget: translated text is about as long as the source in tokens-per-char worst cases, plus JSON. */
const maxTokensFor = (chunk: SegmentChunk) =>
  Math.min(32_000, 512 + chunk.segments.length * 24 + chunk.segments.reduce((a, s) => a + s.text.length, 0));

async function translateChunk(
  llm: Llm,
  chunk: SegmentChunk,
  opts: TranslateOptions,
  usage: LlmUsage,
  signal: AbortSignal,
): Promise<string[]> {
  const base = buildChunkPrompt(chunk, opts.sourceLang, opts.targetLang);
  let problem: string | null = null;
  for (let attempt = 1; attempt <= Math.max(1, opts.maxAttempts); attempt++) {
    const prompt = problem
      ? `${base}\n\nYour previous answer did not line up with the cues (${problem}). ` +
        `Answer with exactly ${chunk.segments.length} entries, i = 1..${chunk.segments.length}.`
      : base;
    const { value, usage: u } = await llm.generate({
      system: SYSTEM,
      prompt,
      schema: ChunkTranslation,
      maxTokens: maxTokensFor(chunk),
      signal,
    });
    usage.inputTokens += u.inputTokens;
    usage.outputTokens += u.outputTokens;
    problem = misalignment(chunk, value);
    if (!problem) {
      const texts = new Array<string>(chunk.segments.length);
      for (const t of value.translations) texts[t.i - 1] = t.text.trim();
      return texts;
    }
  }
  const first = chunk.offset + 1;
  throw new ServiceError(
    'LLM_FAILED',
    `Translation of cues ${first}-${first + chunk.segments.length - 1} did not line up after ` +
      `${opts.maxAttempts} attempts (${problem})`,
  );
}

/**
 * Translates every cue. The result has exactly as many segments as `segments`, with the same start/end;
 * only text changes. A chunk the model cannot keep aligned fails the whole call: a shifted subtitle is worse
 * than none.
 */
export async function translateSegments(
  llm: Llm,
  segments: readonly Segment[],
  opts: TranslateOptions,
): Promise<{ segments: Segment[]; usage: LlmUsage }> {
  const usage: LlmUsage = { inputTokens: 0, outputTokens: 0 };
  const chunks = chunkSegments(segments, opts.chunk);
  let done = 0;
  opts.onProgress?.(0, chunks.length);
  const texts = await mapLimit(
    chunks,
    Math.max(1, opts.concurrency),
    async (chunk, _i, signal) => {
      const out = await translateChunk(llm, chunk, opts, usage, signal);
      opts.onProgress?.(++done, chunks.length);
      return out;
    },
    opts.signal,
  );
  const flat = texts.flat();
  if (flat.length !== segments.length) throw new ServiceError('LLM_FAILED', 'Translation lost cues');
  return { segments: segments.map((s, k) => ({ start: s.start, end: s.end, text: flat[k] as string })), usage };
}
