/**
 * Runs `fn` over `items` with at most `limit` in flight; results keep the input order. The first failure aborts
 * `signal` passed to the others (so in-flight LLM calls stop) and no new item starts.
 */
export async function mapLimit<I, O>(
  items: readonly I[],
  limit: number,
  fn: (item: I, index: number, signal: AbortSignal) => Promise<O>,
  outer?: AbortSignal,
): Promise<O[]> {
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) onOuterAbort();
  else outer?.addEventListener('abort', onOuterAbort, { once: true });
  const results = new Array<O>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && !controller.signal.aborted && next < items.length) {
      const i = next++;
      try {
        results[i] = await fn(items[i] as I, i, controller.signal);
      } catch (error) {
        failure ??= { error };
        controller.abort(error);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  } finally {
    outer?.removeEventListener('abort', onOuterAbort);
  }
  if (failure) throw failure.error;
  if (controller.signal.aborted) throw controller.signal.reason;
  return results;
}
