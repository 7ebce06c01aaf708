// A batch item waits for the longest job it may start (an LLM job or a speech-to-text job, retries included), so its
// queue's expiry must cover that, and pg-boss refuses an expiry past 24 h: STT_MAX_SECONDS is bounded to fit.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.ts';
import { BATCH_ITEM_QUEUE, LLM_JOB_MAX_MS, queueSpecs, SPEECH_QUEUE, speechJobMaxMs } from '../../src/jobs/queues.ts';

const base = { DATABASE_URL: 'postgres://x@127.0.0.1/x' };
const spec = (c: ReturnType<typeof parseConfig>, name: string) => queueSpecs(c).find((q) => q.name === name)!;

describe('batch-item expiry', () => {
  for (const seconds of ['60', '14400', '18000']) {
    it(`covers the speech-to-text job and its retry, within 24 h (STT_MAX_SECONDS=${seconds})`, () => {
      const c = parseConfig({ ...base, STT_MAX_SECONDS: seconds });
      const speech = spec(c, SPEECH_QUEUE);
      const item = spec(c, BATCH_ITEM_QUEUE);
      expect(speechJobMaxMs(c)).toBe(speech.expireInSeconds * (speech.retryLimit + 1) * 1000);
      expect(item.expireInSeconds * 1000).toBeGreaterThan(Math.max(speechJobMaxMs(c), LLM_JOB_MAX_MS));
      expect(item.expireInSeconds).toBeLessThanOrEqual(24 * 3600);
    });
  }

  it('STT_MAX_SECONDS past 5 h is refused at startup', () => {
    expect(() => parseConfig({ ...base, STT_MAX_SECONDS: '18001' })).toThrow(/STT_MAX_SECONDS/);
  });
});
