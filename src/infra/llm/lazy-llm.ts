import type { Llm } from '../../domain/ports.ts';

/** The model asked for when LLM_MODEL is not set. */
export const DEFAULT_LLM_MODEL = 'claude-sonnet-5-5';

/**
 * The Llm port with its adapter, and the SDK behind it, loaded on the first call: a process that never translates or
 * summarises (most API instances between jobs) does not hold the SDK in memory.
 */
export function lazyLlm(model: string, load: () => Promise<Llm>): Llm {
  let llm: Promise<Llm> | undefined;
  return {
    model,
    generate: (req) => (llm ??= load()).then((l) => l.generate(req)),
  };
}
