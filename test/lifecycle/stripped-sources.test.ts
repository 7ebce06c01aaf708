// `npm start` hands Node our sources already stripped of their types (bin/stripped-sources.js): after the first
// start, Node's own stripper (about 20 MiB resident) is never loaded, and the modules behave as Node would load them.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const BIN = new URL('../../bin/stripped-sources.js', import.meta.url).href;
const CONFIG = new URL('../../src/config.ts', import.meta.url);

/** In a fresh Node: the hook, then src/config.ts, made to throw. */
const loadConfig = () =>
  JSON.parse(
    execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { useStrippedSources } = await import(${JSON.stringify(BIN)});
         useStrippedSources();
         const { parseConfig } = await import(${JSON.stringify(CONFIG.href)});
         let stack = '';
         try { parseConfig({ PORT: 'x' }); } catch (e) { stack = e.stack; }
         console.log(JSON.stringify({ stripper: process.moduleLoadList.some((l) => l.includes('amaro')), stack }));`,
      ],
      { encoding: 'utf8', env: { PATH: process.env.PATH } },
    ),
  ) as { stripper: boolean; stack: string };

describe.runIf(process.features.typescript)('stripped sources', () => {
  it('are kept: a second load runs our TypeScript without loading the stripper, with the same line numbers', () => {
    loadConfig();
    const second = loadConfig();
    expect(second.stripper).toBe(false);
    expect(second.stack).toMatch(/Invalid configuration:\n\s+PORT:/);
    const throwLine =
      readFileSync(CONFIG, 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('throw new ConfigError')) + 1;
    expect(second.stack).toContain(`config.ts:${throwLine}:`);
  });
});
