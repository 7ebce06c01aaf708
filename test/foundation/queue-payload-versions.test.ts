// Queue payloads live in pg-boss rows across a deploy: a job enqueued by the previous version, which called the
// caller's job `taskId`, must still be read by this one, and this one writes only `jobId`.
import { describe, expect, it } from 'vitest';
import { LlmPayload, SpeechPayload } from '../../src/jobs/payloads.ts';

const translation = {
  kind: 'translation',
  key: 'k1',
  videoId: 'dQw4w9WgXcQ',
  price: 1,
  sourceLang: 'en',
  targetLang: 'eo',
};
const speech = { kind: 'speech', key: 'k2', videoId: 'dQw4w9WgXcQ', lang: null };

describe('queue payloads written before taskId became jobId', () => {
  it('an LLM job queued with taskId is read with jobId, and written back without taskId', () => {
    const read = LlmPayload.parse({ ...translation, taskId: 'job_old' });
    expect(read).toEqual({ ...translation, jobId: 'job_old' });
    expect(read).not.toHaveProperty('taskId');
  });

  it('a speech job queued with taskId is read with jobId', () => {
    expect(SpeechPayload.parse({ ...speech, taskId: 'job_old' })).toEqual({ ...speech, jobId: 'job_old' });
  });

  it('a new payload keeps its jobId, and jobId wins over a stray taskId', () => {
    expect(LlmPayload.parse({ ...translation, jobId: 'job_new' })).toEqual({ ...translation, jobId: 'job_new' });
    expect(SpeechPayload.parse({ ...speech, jobId: 'job_new', taskId: 'job_old' })).toEqual({
      ...speech,
      jobId: 'job_new',
    });
  });

  it('a payload with neither is refused, as any payload off its schema is', () => {
    expect(() => LlmPayload.parse(translation)).toThrow();
    expect(() => SpeechPayload.parse(speech)).toThrow();
    expect(() => SpeechPayload.parse(null)).toThrow();
  });
});
