import { pino, type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs. Keys are redacted wherever a header or field could carry one. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    redact: {
      paths: ['authorization', 'apiKey', 'key', '*.authorization', '*.apiKey', '*.key', 'headers["x-api-key"]', '*.headers["x-api-key"]', 'cookie', '*.cookie'],
      censor: '[redacted]',
    },
  });
}
