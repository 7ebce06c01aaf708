import { pino, type Logger } from 'pino';

export type { Logger };

/** A stdout that stops reading (a stuck pipe) drops lines past this much buffered, rather than growing without end. */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

/**
 * Structured JSON logs. Keys are redacted wherever a header or field could carry one. Written asynchronously: a
 * synchronous write per line was a system call per request, each waited for; now a line goes out at once, lines
 * logged while a write is under way go out together after it, and pino flushes what is left when the process exits.
 */
export function createLogger(level: string): Logger {
  const destination = pino.destination({ dest: 1, sync: false, maxLength: MAX_BUFFERED_BYTES });
  const log = pino(
    {
      level,
      base: undefined,
      redact: {
        paths: [
          'authorization',
          'apiKey',
          'key',
          '*.authorization',
          '*.apiKey',
          '*.key',
          'headers["x-api-key"]',
          '*.headers["x-api-key"]',
          'cookie',
          '*.cookie',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
  (log as Logger & { [ACCESS]?: Logger })[ACCESS] = pino({ level, base: undefined }, destination);
  return log;
}

const ACCESS = Symbol('access log');

/**
 * The logger for the one line each request writes (id, method, redacted path, status, time: nothing a redaction
 * path names): the same level and output without pino's `redact`, whose library parses every path again on every
 * line (13 KiB of garbage a request, a fifth of a stored answer's). Loggers not made here are their own.
 */
export const accessLog = (log: Logger): Logger => (log as Logger & { [ACCESS]?: Logger })[ACCESS] ?? log;
