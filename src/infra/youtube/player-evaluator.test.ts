import { describe, expect, it } from 'vitest';
import { createPlayerEvaluator } from './player-evaluator.ts';

const run = (output: string, timeoutMs?: number) => createPlayerEvaluator(timeoutMs)({ output } as never, {});

describe('player evaluator (node:vm)', () => {
  it('runs the extracted script as a function body and returns sig and n', () => {
    expect(
      run('const f = (s) => s.split("").reverse().join(""); return { sig: f("abc"), n: "xyz", other: 1 };'),
    ).toEqual({ sig: 'cba', n: 'xyz' });
  });

  it('gives the script none of our globals', () => {
    const seen = run(
      'return { sig: [typeof process, typeof require, typeof fetch, typeof globalThis.process].join(",") };',
    );
    expect(seen).toEqual({ sig: 'undefined,undefined,undefined,undefined', n: undefined });
  });

  it('refuses code generation from strings inside the sandbox', () => {
    expect(() => run('return { sig: eval("1+1") };')).toThrow();
  });

  it('stops a script that does not finish', () => {
    expect(() => run('for (;;) {}', 50)).toThrow(/timed out/i);
  });
});
