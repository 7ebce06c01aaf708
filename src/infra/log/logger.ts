import { pino, type Logger } from 'pino';

export type { Logger };

/** Lines are written in blocks of this size, or after FLUSH_MS at the latest. */
const BLOCK_BYTES = 4096;
const FLUSH_MS = 200;

/**
 * Structured JSON logs. Keys are redacted wherever a header or field could carry one. Written asynchronously and
 * in blocks: a write per line was a system call per request. A line waits at most FLUSH_MS, and pino flushes what
 * is left when the process exits.
 */
export function createLogger(level: string): Logger {
  const destination = pino.destination({ dest: 1, sync: false, minLength: BLOCK_BYTES });
  let unflushed = false;
  setInterval(() => {
    if (!unflushed) return;
    unflushed = false;
    destination.flush(() => {}); // an error here is a destination closed at exit: nothing left to write
  }, FLUSH_MS).unref();
  return pino(
    {
      level,
      hooks: {
        streamWrite: (line) => {
          unflushed = true;
          return line;
        },
      },
      base: undefined,
      redact: {
        paths: ['authorization', 'apiKey', 'key', '*.authorization', '*.apiKey', '*.key', 'headers["x-api-key"]', '*.headers["x-api-key"]', 'cookie', '*.cookie'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
