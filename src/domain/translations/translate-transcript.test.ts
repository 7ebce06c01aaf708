import { describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { isServiceError } from '../errors.ts';
import type { Llm } from '../ports.ts';
import { makeSegments, promptCues } from '../../../test/support/cue-prompt.ts';
import { chunkSegments } from './chunk-segments.ts';
import { translateSegments } from './translate-transcript.ts';

type Answer = { translations: Array<{ i: number; text: string }> };

/** A fake model: `answer` maps the prompt's cues to its reply; calls and concurrency are recorded. */
function fakeLlm(answer: (cues: Array<{ i: number; text: string }>, call: number, prompt: string) => Answer) {
  const stats = { calls: 0, inFlight: 0, maxInFlight: 0, prompts: [] as string[] };
  const llm: Llm = {
    model: 'fake',
    async generate<T>(req: { prompt: string; schema: ZodType<T> }) {
      const call = stats.calls++;
      stats.prompts.push(req.prompt);
      stats.inFlight++;
      stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
      await new Promise((r) => setTimeout(r, 1));
      stats.inFlight--;
      const value = req.schema.parse(answer(promptCues(req.prompt), call, req.prompt));
      return { value, usage: { inputTokens: 10, outputTokens: 5 } };
    },
  };
  return { llm, stats };
}

const upper = (cues: Array<{ i: number; text: string }>): Answer => ({
  translations: cues.map((c) => ({ i: c.i, text: c.text.toUpperCase() })),
});
const opts = { sourceLang: 'en', targetLang: 'fr', concurrency: 3, maxAttempts: 3 };

describe('chunkSegments', () => {
  it('covers every segment once, in order, within budget, with context around', () => {
    const segs = makeSegments(500);
    const chunks = chunkSegments(segs, { maxChars: 1000, maxSegments: 50, context: 2 });
    expect(chunks.flatMap((c) => c.segments)).toEqual(segs);
    for (const c of chunks) {
      expect(c.segments.length).toBeLessThanOrEqual(50);
      expect(c.segments.reduce((a, s) => a + s.text.length, 0)).toBeLessThanOrEqual(1000);
    }
    expect(chunks[1]?.before).toEqual(segs.slice(chunks[1]!.offset - 2, chunks[1]!.offset));
    expect(chunks[0]?.before).toEqual([]);
    expect(chunks.at(-1)?.after).toEqual([]);
  });

  it('gives an oversized segment its own chunk', () => {
    const segs = [{ start: 0, end: 1, text: 'x'.repeat(50) }, ...makeSegments(3)];
    expect(chunkSegments(segs, { maxChars: 10 }).map((c) => c.segments.length)).toEqual([1, 1, 1, 1]);
  });
});

describe('translateSegments', () => {
  it.each([0, 1, 7, 250, 3000])('keeps count and timestamps for %i segments', async (n) => {
    const segs = makeSegments(n);
    const { llm, stats } = fakeLlm(upper);
    const progress: number[] = [];
    const out = await translateSegments(llm, segs, { ...opts, onProgress: (d) => progress.push(d) });
    expect(out.segments).toHaveLength(n);
    out.segments.forEach((s, k) => {
      expect([s.start, s.end]).toEqual([segs[k]!.start, segs[k]!.end]);
      expect(s.text).toBe(segs[k]!.text.toUpperCase());
    });
    expect(out.usage).toEqual({ inputTokens: stats.calls * 10, outputTokens: stats.calls * 5 });
    expect(stats.maxInFlight).toBeLessThanOrEqual(3);
    expect(progress.at(-1)).toBe(chunkSegments(segs).length);
  });

  it('accepts entries out of order but places them by number', async () => {
    const { llm } = fakeLlm((cues) => ({ translations: upper(cues).translations.reverse() }));
    const segs = makeSegments(5);
    const out = await translateSegments(llm, segs, opts);
    expect(out.segments.map((s) => s.text)).toEqual(segs.map((s) => s.text.toUpperCase()));
  });

  it.each([
    ['dropped', (a: Answer) => ({ translations: a.translations.slice(0, -1) })],
    [
      'merged',
      (a: Answer) => ({
        translations: [...a.translations.slice(0, 2), { i: 3, text: '' }, ...a.translations.slice(3)],
      }),
    ],
    ['extra', (a: Answer) => ({ translations: [...a.translations, { i: a.translations.length + 1, text: 'x' }] })],
    ['duplicate', (a: Answer) => ({ translations: [...a.translations.slice(0, -1), { i: 1, text: 'x' }] })],
  ])('re-asks a chunk whose answer is %s', async (_name, spoil) => {
    const { llm, stats } = fakeLlm((cues, call) => (call === 0 ? spoil(upper(cues)) : upper(cues)));
    const segs = makeSegments(10);
    const out = await translateSegments(llm, segs, { ...opts, concurrency: 1 });
    expect(stats.calls).toBe(2);
    expect(stats.prompts[1]).toContain('did not line up');
    expect(out.segments.map((s) => s.text)).toEqual(segs.map((s) => s.text.toUpperCase()));
  });

  it('fails with LLM_FAILED when a chunk stays misaligned, never shifting text', async () => {
    const { llm, stats } = fakeLlm((cues) => ({ translations: upper(cues).translations.slice(1) }));
    const err = await translateSegments(llm, makeSegments(10), opts).catch((e: unknown) => e);
    expect(isServiceError(err) && err.code).toBe('LLM_FAILED');
    expect(stats.calls).toBe(3);
  });

  it('does not translate context lines', async () => {
    const { llm, stats } = fakeLlm(upper);
    await translateSegments(llm, makeSegments(300), {
      ...opts,
      chunk: { maxChars: 100_000, maxSegments: 100, context: 2 },
    });
    expect(stats.prompts[1]).toContain('Context before (do not translate):\n> cue 98');
    expect(promptCues(stats.prompts[1]!).map((c) => c.i)).toEqual(Array.from({ length: 100 }, (_, k) => k + 1));
  });
});
