// The Llm port on the official Anthropic SDK. Structured output uses the SDK's `zodOutputFormat` helper
// (output_config.format = JSON schema generated from the zod schema; the API constrains the answer to it) and
// the same helper's `parse` validates the answer with zod.
import Anthropic, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from '@anthropic-ai/sdk';
import { zodOutputFormat } from '@anthropic-ai/sdk/helpers/zod';
import type { ZodType } from 'zod';
import { ServiceError } from '../../domain/errors.ts';
import type { Llm, LlmUsage } from '../../domain/ports.ts';

/** Newest Sonnet in the SDK's `Model` union (1.12): good quality per cost for translation and summaries. */

export interface LlmLog {
  warn(obj: object, msg: string): void;
}

export interface AnthropicLlmOptions {
  apiKey: string;
  baseURL?: string;
  model: string;
  /** Per HTTP attempt. */
  timeoutMs: number;
  /** Retries after the first attempt, on 408/409/429/5xx/529, connection errors, timeouts and invalid answers. */
  maxRetries: number;
  /** First backoff delay; doubles per retry up to maxDelayMs. Tests shorten it. */
  retryBaseMs?: number;
  /** Upper bound for any wait, including a server's Retry-After. */
  maxDelayMs?: number;
  log?: LlmLog;
}

type GenerateRequest<T> = {
  system: string;
  prompt: string;
  schema: ZodType<T>;
  maxTokens: number;
  signal?: AbortSignal;
};

type Outcome = { retry: boolean; reason: string; retryAfterMs?: number };

/** Classifies a failed attempt; reasons never carry the key or upstream bodies beyond the error type. */
function classify(e: unknown): Outcome {
  if (e instanceof APIUserAbortError) return { retry: false, reason: 'cancelled' };
  if (e instanceof APIConnectionError) {
    return { retry: true, reason: e instanceof APIConnectionTimeoutError ? 'timed out' : 'connection failed' };
  }
  if (e instanceof APIError) {
    const status = e.status ?? 0;
    const body = e.error as { error?: { type?: unknown } } | undefined;
    const type = typeof body?.error?.type === 'string' ? ` ${body.error.type}` : '';
    const retry = status === 408 || status === 409 || status === 429 || status >= 500;
    const header = e.headers?.get('retry-after');
    const secs = header ? Number.parseFloat(header) : Number.NaN;
    return { retry, reason: `HTTP ${status}${type}`, retryAfterMs: Number.isFinite(secs) ? secs * 1000 : undefined };
  }
  if (e instanceof InvalidAnswer) return { retry: e.retryable, reason: e.message };
  return { retry: false, reason: 'unexpected error' };
}

class InvalidAnswer extends Error {
  readonly retryable: boolean;
  constructor(message: string, retryable: boolean) {
    super(message);
    this.retryable = retryable;
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }
    function onAbort() {
      clearTimeout(t);
      reject(signal?.reason);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function createAnthropicLlm(opts: AnthropicLlmOptions): Llm {
  const maxRetries = Math.max(0, Math.min(10, Math.floor(opts.maxRetries)));
  const retryBaseMs = opts.retryBaseMs ?? 500;
  const maxDelayMs = opts.maxDelayMs ?? 30_000;
  // Retries are ours (SDK maxRetries 0): the SDK honours any Retry-After unbounded, and we want logs per retry.
  const client = new Anthropic({
    apiKey: opts.apiKey,
    // Explicit, so the SDK does not fall back to ANTHROPIC_BASE_URL: config is parsed in one place.
    baseURL: opts.baseURL ?? 'https://api.anthropic.com',
    timeout: opts.timeoutMs,
    maxRetries: 0,
    logLevel: 'off',
  });

  return {
    model: opts.model,
    async generate<T>(req: GenerateRequest<T>) {
      const usage: LlmUsage = { inputTokens: 0, outputTokens: 0 };
      for (let n = 0; ; n++) {
        try {
          const value = await attempt<T>(client, opts.model, req, usage);
          return { value, usage };
        } catch (e) {
          if (req.signal?.aborted) throw req.signal.reason ?? new ServiceError('LLM_FAILED', 'LLM call cancelled');
          const outcome = classify(e);
          if (!outcome.retry || n >= maxRetries) {
            const tries = n + 1;
            throw new ServiceError(
              'LLM_FAILED',
              `LLM call failed after ${tries} attempt${tries === 1 ? '' : 's'}: ${outcome.reason}`,
            );
          }
          const backoff = Math.min(retryBaseMs * 2 ** n, maxDelayMs) * (1 - Math.random() * 0.25);
          const delay = Math.min(outcome.retryAfterMs ?? backoff, maxDelayMs);
          opts.log?.warn({ attempt: n + 1, reason: outcome.reason, delayMs: Math.round(delay) }, 'llm retry');
          await sleep(delay, req.signal);
        }
      }
    },
  };
}

/** One call; the tokens it used are added to `usage` even when its answer is turned down. */
async function attempt<T>(client: Anthropic, model: string, req: GenerateRequest<T>, usage: LlmUsage): Promise<T> {
  const format = zodOutputFormat(req.schema);
  const message = await client.messages.create(
    {
      model,
      max_tokens: req.maxTokens,
      system: req.system,
      messages: [{ role: 'user', content: req.prompt }],
      output_config: { format },
    },
    { signal: req.signal },
  );
  const u = message.usage;
  usage.inputTokens += u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
  usage.outputTokens += u.output_tokens;
  // Not messages.parse(): we need stop_reason and usage even when the answer does not validate.
  if (message.stop_reason === 'max_tokens') throw new InvalidAnswer('answer exceeded max_tokens', false);
  if (message.stop_reason === 'refusal') throw new InvalidAnswer('model refused', false);
  const text = message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
  try {
    return format.parse(text) as T;
  } catch {
    throw new InvalidAnswer('answer did not match the schema', true);
  }
}
