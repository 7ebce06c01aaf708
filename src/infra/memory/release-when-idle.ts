// Memory that comes back after a load. Under load V8 sizes its old generation from the garbage rate (about 200 MiB at
// a few thousand requests a second, with 60 MiB live) and keeps the pages it freed for reuse; once the load stops
// nothing allocates, so no collection ever gives them back. When an instance that has been serving turns idle, one
// memory-reducing collection (the flavour V8 runs under memory pressure) returns them to the system. It needs
// `--expose-gc`, which `npm start` and the image pass; without it this does nothing.
import { getHeapStatistics } from 'node:v8';

/** How often the instance checks whether it has turned idle. */
const CHECK_MS = 2_000;
/** Heap held beyond what is live, below which giving it back is not worth a full collection. */
const SLACK_BYTES = 16 * 2 ** 20;

type Collect = (options: { type: 'major'; flavor: 'last-resort' }) => void;
type RequestSource = { on(event: 'request', listener: () => void): unknown };

/**
 * After each busy period (requests served, then a check interval with none), one memory-reducing collection if V8
 * holds more than SLACK_BYTES beyond its live heap. Returns the function that stops watching.
 */
export function releaseMemoryWhenIdle(
  server: RequestSource,
  { collect = globalThis.gc as Collect | undefined, slackBytes = SLACK_BYTES } = {},
) {
  if (!collect) return () => {};
  let served = 0;
  let seen = 0;
  // Start-up counts as a busy period: loading the modules and checking the database leave garbage behind too.
  let sinceRelease = true;
  server.on('request', () => {
    served++;
  });
  const timer = setInterval(() => {
    const busy = served !== seen;
    seen = served;
    if (busy) {
      sinceRelease = true;
      return;
    }
    if (!sinceRelease) return;
    sinceRelease = false;
    const heap = getHeapStatistics();
    if (heap.total_heap_size - heap.used_heap_size >= slackBytes) collect({ type: 'major', flavor: 'last-resort' });
  }, CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
