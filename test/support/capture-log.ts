import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';

/** A pino logger whose JSON lines are kept in memory, for tests that read what was logged. */
export function captureLogger(level = 'debug'): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { log: pino({ level, base: undefined }, stream), lines };
}
