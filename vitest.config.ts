import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { suitesToSkip } from './test/support/system-needs.ts';

// Suites whose system tool is missing here are left out (never with CI set); the run ends by naming them.
const skipped = suitesToSkip(fileURLToPath(new URL('.', import.meta.url))).map((s) => s.file);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...skipped],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // 2 cores, but about half of a file's time is waiting (on PostgreSQL, child processes, pg-boss's heartbeats): 4
    // files at a time keep both cores busy (3 left them half idle) and stay under PostgreSQL's 100 connections (77 at
    // the peak of a whole run).
    maxWorkers: 4,
    pool: 'forks',
    // Each file isolates itself by its own database schema, so a worker keeps the modules it imported for the next
    // file: about half the run was importing the same modules again.
    isolate: false,
  },
});
