import { describe, expect, it } from 'vitest';
import { requestArticleText } from './articles.ts';
import { jobText } from './jobs.ts';

const job = {
  id: 'job_1',
  kind: 'translation' as const,
  status: 'succeeded' as const,
  progress: 1,
  creditsCharged: 1,
  createdAt: '',
  updatedAt: '',
};

describe('MCP text', () => {
  it('a summary still running says how to poll', () => {
    const text = requestArticleText({
      status: 'running',
      cached: false,
      creditsCharged: 2,
      job: { ...job, kind: 'summary', status: 'running', progress: 0.25 },
    });
    expect(text).toBe('Article running (progress 25%). Call get_job with id "job_1" until status is succeeded.');
  });

  it('a job: pending, failed, and a translation shown as cited lines, at most 300', () => {
    expect(jobText({ ...job, status: 'queued', progress: 0 })).toBe(
      'Job job_1 queued, 0% done; call get_job again in a few seconds.',
    );
    expect(
      jobText({
        ...job,
        status: 'failed',
        progress: 0,
        creditsCharged: 0,
        error: { code: 'LLM_FAILED', message: 'no' },
      }),
    ).toBe('Job job_1 failed: LLM_FAILED no');
    const segments = Array.from({ length: 301 }, (_, k) => ({ start: k, end: k + 1, text: `FR ${k}` }));
    const translation = {
      videoId: 'abcdefghijk',
      sourceLang: 'en',
      targetLang: 'fr',
      segmentCount: 301,
      duration: 301,
      segments,
      model: 'm',
      createdAt: '',
    };
    const lines = jobText({ ...job, result: { translation } }).split('\n');
    expect(lines.slice(0, 5)).toEqual([
      'Job job_1 (translation) succeeded; 1 credit charged.',
      '',
      'Translation of abcdefghijk from en into fr: 301 segments (m).',
      '',
      '[0:00:00] FR 0',
    ]);
    expect(lines.at(-1)).toBe('1 more segment is in structuredContent (result.translation.segments).');
    expect(lines).toHaveLength(4 + 300 + 2);
  });
});
