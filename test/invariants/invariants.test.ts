// The money, isolation and liveness invariants under random programs of operations from three accounts over REST,
// tRPC and MCP, several in flight at once, some on failure paths (a media server answering 500, accounts without
// credits, a translation into its own language, failing videos). Fixed seeds here; `npm run bench -- invariants`
// runs the same harness long. Operations of confirmed, still open findings are steered around: known-holes.ts.
// Database blips (every connection of the service cut) and a worker killed at a random point (a second worker
// instance whose database connections are all cut at once, then replaced: test/support/killable-worker.ts) are
// generated too. The seeds are chosen so that CI runs both: 23 kills a worker mid-program, 5 kills two and cuts the
// database once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedAvailable } from '../support/fixture-files.ts';
import { audioAvailable } from '../support/speech-audio.ts';
import { browseAvailable } from '../support/youtube-browse-replay.ts';
import { runSeed } from './run-seeds.ts';
import { type InvariantStack, startInvariantStack } from './stack.ts';

const run = sharedAvailable && browseAvailable && audioAvailable;
if (process.env.CI && !run) throw new Error('the shared YouTube, browse and audio fixtures are needed in CI');

const SEEDS = [23, 5];

describe.skipIf(!run)('invariants under random programs', { timeout: 120_000 }, () => {
  let stack: InvariantStack;
  beforeAll(async () => {
    stack = await startInvariantStack();
  }, 120_000);
  afterAll(() => stack?.close());

  for (const seed of SEEDS)
    it(`seed ${seed}: balances, refunds, payments, isolation and final states hold`, async () => {
      const result = await runSeed(stack, { seed, programs: 1, size: 14, width: 4 });
      expect(result.operations).toBe(14);
      expect(result.violations).toEqual([]);
    });
});
