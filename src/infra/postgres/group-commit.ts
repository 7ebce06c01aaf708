// Group commit for a per-request statement: requests that arrive while earlier ones are in flight wait and go
// together in the next statement, so 32 concurrent requests cost a few round trips, not 32. Nothing joins a
// statement already sent, so each request still sees the database as of after it arrived.

export interface GroupCommit<Req, Res> {
  run(req: Req): Promise<Res>;
}

/** The answer for one request of a batch whose own part failed while the rest of the batch was answered. */
export class FailedInBatch {
  readonly cause: unknown;
  constructor(cause: unknown) {
    this.cause = cause;
  }
}

interface Waiting<Req, Res> {
  req: Req;
  resolve(res: Res): void;
  reject(err: unknown): void;
}

/**
 * `runBatch` answers a batch in its order (one result per request, or FailedInBatch for one that failed alone). At most `maxInFlight` batches run at once. With
 * a slot free, a batch is sent at the end of the event-loop turn its first request arrived in (setImmediate), so
 * requests parsed in the same turn share it; otherwise as soon as a batch returns. At most `maxBatch` requests go
 * in one statement.
 */
export function groupCommit<Req, Res>(
  runBatch: (batch: Req[]) => Promise<(Res | FailedInBatch)[]>,
  opts: { maxInFlight?: number; maxBatch?: number } = {},
): GroupCommit<Req, Res> {
  const maxInFlight = opts.maxInFlight ?? 2;
  const maxBatch = opts.maxBatch ?? 256;
  let waiting: Waiting<Req, Res>[] = [];
  let inFlight = 0;
  let scheduled = false;

  const send = () => {
    scheduled = false;
    while (inFlight < maxInFlight && waiting.length > 0) {
      const batch = waiting.slice(0, maxBatch);
      waiting = waiting.slice(batch.length);
      inFlight++;
      runBatch(batch.map((w) => w.req))
        .then(
          (results) => {
            for (const [i, w] of batch.entries()) {
              const r = results[i];
              if (r instanceof FailedInBatch) w.reject(r.cause);
              else w.resolve(r as Res);
            }
          },
          (err: unknown) => {
            for (const w of batch) w.reject(err);
          },
        )
        .finally(() => {
          inFlight--;
          // Whoever arrived meanwhile has waited a whole round trip already: send at once.
          send();
        });
    }
  };
  const schedule = () => {
    if (scheduled || waiting.length === 0 || inFlight >= maxInFlight) return;
    scheduled = true;
    setImmediate(send);
  };

  return {
    run(req) {
      return new Promise<Res>((resolve, reject) => {
        waiting.push({ req, resolve, reject });
        schedule();
      });
    },
  };
}
