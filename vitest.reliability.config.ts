import { defineConfig } from 'vitest/config';

// `npm run test:reliability`: money under concurrency, rate limits across instances, faults, fuzzing and security.
// Files are named *.reliability.ts so the main suite (test/**/*.test.ts) never picks them up. One file at a time:
// each drives the 2 cores hard on its own.
export default defineConfig({
  test: {
    include: ['test/reliability/**/*.reliability.ts'],
    globalSetup: ['test/reliability/global-setup.ts'],
    testTimeout: 180_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    pool: 'forks',
  },
});
