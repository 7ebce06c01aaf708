import { describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { isServiceError } from '../errors.ts';
import type { Llm } from '../ports.ts';
import { generateArticle } from './generate-article.ts';
import { ArticleDraft } from './schemas.ts';

const segments = (seconds: number) =>
  Array.from({ length: Math.floor(seconds / 4) }, (_, k) => ({ start: k * 4, end: k * 4 + 3.9, text: `point ${k}` }));

/** Answers notes requests with one note per window and article requests with `article(prompt, call)`. */
function fakeLlm(article: (prompt: string, call: number) => unknown) {
  const prompts: string[] = [];
  let articleCalls = 0;
  const llm: Llm = {
    model: 'fake-model',
    async generate<T>(req: { prompt: string; schema: ZodType<T> }) {
      prompts.push(req.prompt);
      const m = /part from t=(\d+) to t=(\d+)/.exec(req.prompt);
      const value = m
        ? { notes: [{ start: Number(m[1]), end: Number(m[2]), text: `notes ${m[1]}` }] }
        : article(req.prompt, articleCalls++);
      return { value: req.schema.parse(value), usage: { inputTokens: 100, outputTokens: 10 } };
    },
  };
  return { llm, prompts };
}

const answer = (sections: Array<[number, number]>) => ({
  title: 'A title',
  summary: 'A summary.',
  sections: sections.map(([start, end], k) => ({ heading: `H${k}`, start, end, text: `Text ${k}` })),
  keyPoints: ['one', 'two'],
  tags: ['Alpha', 'alpha', 'beta'],
  category: 'science',
});
const base = { videoId: 'vid', title: 'Video', lang: 'en', sourceLang: 'en', length: 'medium' as const };

describe('generateArticle', () => {
  it('short video: one call with the transcript, a valid draft', async () => {
    const { llm, prompts } = fakeLlm(() =>
      answer([
        [0, 100],
        [100, 300],
      ]),
    );
    const { article, usage } = await generateArticle(llm, { ...base, segments: segments(300), durationSeconds: 300 });
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toContain('[t=4] point 1');
    expect(ArticleDraft.parse(article)).toEqual(article);
    expect(article.generator).toEqual({ kind: 'llm', model: 'fake-model' });
    expect(article.tags).toEqual(['alpha', 'beta']);
    expect(usage).toEqual({ inputTokens: 100, outputTokens: 10 });
  });

  it('a video with chapters: at any length, one section per chapter, headed by its title', async () => {
    const chapters = [
      { title: 'Intro', start: 0 },
      { title: 'Dough', start: 100 },
      { title: 'Baking', start: 200 },
    ];
    for (const length of ['short', 'medium', 'long'] as const) {
      const { llm, prompts } = fakeLlm(() => answer([[0, 300]]));
      await generateArticle(llm, { ...base, length, segments: segments(300), durationSeconds: 300, chapters });
      expect(prompts[0]).toContain('Chapters: [t=0] Intro; [t=100] Dough; [t=200] Baking');
      expect(prompts[0]).toContain("one section per chapter (3 chapters), headed by the chapter's title");
    }
  });

  it('3-hour video: summarized window by window, then combined', async () => {
    const { llm, prompts } = fakeLlm((p) => {
      expect(p).toContain('Notes on the whole video');
      return answer([
        [0, 3600],
        [3600, 7200],
        [7200, 10800],
      ]);
    });
    const { article, usage } = await generateArticle(llm, {
      ...base,
      segments: segments(10800),
      durationSeconds: 10800,
    });
    expect(prompts).toHaveLength(10); // 9 windows of 20 minutes + 1 combine
    expect(prompts.every((p) => p.length < 60_000)).toBe(true);
    expect(prompts[9]).toContain('notes 9600');
    expect(article.sections).toHaveLength(3);
    expect(usage.inputTokens).toBe(1000);
  });

  it('clamps, sorts and trims sections the model got wrong', async () => {
    const { llm } = fakeLlm(() =>
      answer([
        [500, 900],
        [-20, 50],
        [100, 80],
        [250, 9999],
      ]),
    );
    const { article } = await generateArticle(llm, { ...base, segments: segments(600), durationSeconds: 600 });
    expect(article.sections.map((s) => [s.start, s.end])).toEqual([
      [0, 50],
      [100, 250],
      [250, 500],
      [500, 600],
    ]);
  });

  it('re-asks when no section is usable, then fails with LLM_FAILED', async () => {
    const { llm, prompts } = fakeLlm(() => answer([]));
    const err = await generateArticle(llm, { ...base, segments: segments(60), durationSeconds: 60 }).catch(
      (e: unknown) => e,
    );
    expect(isServiceError(err) && err.code).toBe('LLM_FAILED');
    expect(prompts).toHaveLength(2);

    const second = fakeLlm((_p, call) => (call === 0 ? answer([]) : answer([[0, 60]])));
    const { article } = await generateArticle(second.llm, { ...base, segments: segments(60), durationSeconds: 60 });
    expect(article.sections).toHaveLength(1);
  });
});
