// One service and one key for a whole test file, as most contract tests want them.
import { afterAll, beforeAll } from 'vitest';
import type { Deps } from '../../src/deps.ts';
import { startTestServer, type TestServer } from './test-server.ts';

/**
 * Starts the service (with `overrides`, e.g. a fake video source) and a key holding `credits` before the file's
 * tests, and closes it after them. Read `.s` and `.key` inside the tests.
 */
export function sharedServerWithKey(overrides: Partial<Deps> = {}, credits = 100): { s: TestServer; key: string } {
  const shared = {} as { s: TestServer; key: string };
  beforeAll(async () => {
    shared.s = await startTestServer({}, overrides);
    ({ key: shared.key } = await shared.s.newKey({ credits }));
  });
  afterAll(() => shared.s?.close());
  return shared;
}
