// translateSegments through the real Anthropic SDK adapter, against a loopback server speaking the Messages API.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isServiceError } from '../../src/domain/errors.ts';
import { translateSegments } from '../../src/domain/translations/translate-transcript.ts';
import { createAnthropicLlm } from '../../src/infra/llm/anthropic-llm.ts';
import { makeSegments, promptCues } from '../support/cue-prompt.ts';
import {
  startFakeAnthropic,
  userText,
  type FakeAnthropic,
  type FakeMessagesRequest,
} from '../support/fake-anthropic.ts';

let fake: FakeAnthropic;
beforeEach(async () => {
  fake = await startFakeAnthropic((req) => ({ json: translateAll(req) }));
});
afterEach(() => fake.close());

const translateAll = (req: FakeMessagesRequest) => ({
  translations: promptCues(userText(req)).map((c) => ({ i: c.i, text: `FR ${c.text}` })),
});
const llm = (over: Partial<Parameters<typeof createAnthropicLlm>[0]> = {}) =>
  createAnthropicLlm({
    apiKey: 'sk-ant-test-secret',
    baseURL: fake.url,
    model: 'claude-test',
    timeoutMs: 5_000,
    maxRetries: 3,
    retryBaseMs: 5,
    ...over,
  });
const opts = { sourceLang: 'en', targetLang: 'fr', concurrency: 4, maxAttempts: 3 };

describe('happy', () => {
  it.each([1, 40, 600, 3000])('keeps %i segments and their timestamps', async (n) => {
    const segs = makeSegments(n);
    const out = await translateSegments(llm(), segs, opts);
    expect(out.segments).toHaveLength(n);
    out.segments.forEach((s, k) => {
      expect(s).toEqual({ start: segs[k]!.start, end: segs[k]!.end, text: `FR ${segs[k]!.text}` });
    });
    expect(out.usage.inputTokens).toBeGreaterThan(0);
    expect(out.usage.outputTokens).toBeGreaterThan(0);
  });

  it('sends a structured-output request the way the API expects', async () => {
    await translateSegments(llm(), makeSegments(3), opts);
    const r = fake.requests[0]!;
    expect(r.path).toBe('/v1/messages');
    expect(r.headers.authorization).toBe('Bearer sk-ant-test-secret');
    expect(r.headers['anthropic-version']).toBeTruthy();
    expect(r.body.model).toBe('claude-test');
    expect(r.body.output_config?.format?.type).toBe('json_schema');
    expect(JSON.stringify(r.body.output_config?.format?.schema)).toContain('translations');
  });
});

describe('model errors', () => {
  it('re-asks a chunk whose answer dropped or merged a segment', async () => {
    fake.enqueue({
      json: {
        translations: [
          { i: 1, text: 'FR a + b' },
          { i: 3, text: 'FR c' },
        ],
      },
    });
    const segs = makeSegments(3);
    const out = await translateSegments(llm(), segs, opts);
    expect(fake.requests).toHaveLength(2);
    expect(userText(fake.requests[1]!.body)).toContain('did not line up');
    expect(out.segments.map((s) => s.text)).toEqual(segs.map((s) => `FR ${s.text}`));
  });

  it('retries an answer that is not valid JSON for the schema', async () => {
    fake.enqueue({ text: '{"translations": [' });
    const out = await translateSegments(llm(), makeSegments(2), opts);
    expect(out.segments).toHaveLength(2);
    expect(fake.requests).toHaveLength(2);
  });
});

describe('upstream errors', () => {
  it('429 with retry-after, then success', async () => {
    fake.enqueue({ status: 429, retryAfter: 0.05 });
    const t0 = Date.now();
    const out = await translateSegments(llm(), makeSegments(5), opts);
    expect(out.segments).toHaveLength(5);
    expect(fake.requests).toHaveLength(2);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(45);
  });

  it('529 overloaded, then success', async () => {
    fake.enqueue({ status: 529 }, { status: 500 });
    const out = await translateSegments(llm(), makeSegments(5), opts);
    expect(out.segments).toHaveLength(5);
    expect(fake.requests).toHaveLength(3);
  });

  it('a Retry-After beyond the cap is bounded', async () => {
    fake.enqueue({ status: 429, retryAfter: 3600 });
    const t0 = Date.now();
    await translateSegments(llm({ maxDelayMs: 50 }), makeSegments(2), opts);
    expect(Date.now() - t0).toBeLessThan(2_000);
  });

  it('keeps failing -> LLM_FAILED after maxRetries, without leaking the key', async () => {
    fake.setHandler(() => ({ status: 529 }));
    const err = await translateSegments(llm({ maxRetries: 2 }), makeSegments(5), opts).catch((e: unknown) => e);
    expect(isServiceError(err) && err.code).toBe('LLM_FAILED');
    expect(String((err as Error).message)).toMatch(/3 attempts.*529/);
    expect(String((err as Error).message)).not.toContain('sk-ant');
    expect(fake.requests).toHaveLength(3);
  });

  it('a slow answer hits the timeout -> LLM_FAILED', async () => {
    fake.setHandler((req) => ({ delayMs: 2_000, reply: { json: translateAll(req) } }));
    const t0 = Date.now();
    const err = await translateSegments(llm({ timeoutMs: 150, maxRetries: 1 }), makeSegments(5), opts).catch(
      (e: unknown) => e,
    );
    expect(isServiceError(err) && err.code).toBe('LLM_FAILED');
    expect((err as Error).message).toMatch(/timed out/);
    expect(fake.requests).toHaveLength(2);
    expect(Date.now() - t0).toBeLessThan(1_500);
  });

  it('a 400 is not retried', async () => {
    fake.setHandler(() => ({ status: 400, message: 'bad' }));
    const err = await translateSegments(llm(), makeSegments(5), opts).catch((e: unknown) => e);
    expect(isServiceError(err) && err.code).toBe('LLM_FAILED');
    expect(fake.requests).toHaveLength(1);
  });
});
