// Memory that comes back after a load. Under load V8 sizes its old generation from the garbage rate and keeps the
// pages it freed for reuse (they are not in its heap statistics); once the load stops nothing allocates, so no
// collection ever gives them back. When an instance that has been serving turns idle having grown, one
// memory-reducing collection (the flavour V8 runs under memory pressure) returns them to the system. It needs
// `--expose-gc`, which `npm start` and the image pass; without it this does nothing.

/** How often the instance checks whether it has turned idle. */
const CHECK_MS = 2_000;
/** Growth of the resident set since the last release below which a full collection is not worth it. */
const GROWTH_BYTES = 16 * 2 ** 20;

type Collect = (options: { type: 'major'; flavor: 'last-resort' }) => void;
type RequestSource = { on(event: 'request', listener: () => void): unknown };

interface Options {
  collect?: Collect;
  growthBytes?: number;
  /** The resident set size, in bytes. */
  rss?: () => number;
}

/**
 * After each busy period (requests served, then a check interval with none), and after start-up, one
 * memory-reducing collection if the resident set grew by GROWTH_BYTES since the last one. Returns the function that
 * stops watching.
 */
export function releaseMemoryWhenIdle(server: RequestSource, options: Options = {}) {
  const {
    collect = globalThis.gc as Collect | undefined,
    growthBytes = GROWTH_BYTES,
    rss = () => process.memoryUsage.rss(),
  } = options;
  if (!collect) return () => {};
  let served = 0;
  let seen = 0;
  // Start-up counts as a busy period: loading the modules and checking the database leave garbage behind too.
  let sinceRelease = true;
  let released = 0;
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
    if (rss() - released < growthBytes) return;
    collect({ type: 'major', flavor: 'last-resort' });
    released = rss();
  }, CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
