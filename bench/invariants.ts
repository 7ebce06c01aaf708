// The invariant harness of test/invariants run long: BENCH_INVARIANT_SEEDS seeds (default 3), each with programs of
// BENCH_INVARIANT_SIZE operations (default 40) until BENCH_INVARIANT_OPS operations (default 10,000) have run,
// BENCH_INVARIANT_WIDTH in flight (default 6). Prints operations, programs, seeds, violations and duration; each
// violation with its seed and program, to reproduce with the same seed. Where the time goes is printed per round of
// ten programs (run, settle, check; and per kind of operation): see RELIABILITY.md section 7.
import { loadavg } from 'node:os';
import { fmt, table, type BenchSection } from './support.ts';
import { audioAvailable } from '../test/support/speech-audio.ts';
import { browseAvailable } from '../test/support/youtube-browse-replay.ts';
import { KNOWN_HOLES } from '../test/invariants/known-holes.ts';
import { runSeed, type SeedRun } from '../test/invariants/run-seeds.ts';
import { startInvariantStack } from '../test/invariants/stack.ts';
import { benchDatabase } from './support.ts';

const FIRST_SEED = Number(process.env.BENCH_INVARIANT_FIRST_SEED ?? 1);
const SEEDS = Number(process.env.BENCH_INVARIANT_SEEDS ?? 3);
const OPS = Number(process.env.BENCH_INVARIANT_OPS ?? 10_000);
const SIZE = Number(process.env.BENCH_INVARIANT_SIZE ?? 40);
const WIDTH = Number(process.env.BENCH_INVARIANT_WIDTH ?? 6);

export async function run(): Promise<BenchSection[]> {
  // An unhandled rejection ends the run, as it would end the service: say which query it was (postgres.js errors
  // carry it, not enumerable), since the stack may show only the driver's frames.
  process.on('unhandledRejection', (e: any) => {
    console.error('[invariants] unhandled rejection:', e?.code, e?.message, 'query:', e?.query, '\n', e?.stack);
    process.exit(1);
  });
  if (!audioAvailable || !browseAvailable) throw new Error('the shared audio and browse fixtures are needed');
  const rows: (string | number)[][] = [];
  const found: string[] = [];
  let totals = { operations: 0, programs: 0, violations: 0, ms: 0 };
  for (let seed = FIRST_SEED; seed < FIRST_SEED + SEEDS; seed++) {
    // One service per seed: what is stored accumulates over its programs, as on a live service.
    const stack = await startInvariantStack({
      database: await benchDatabase(`inv${seed}`),
      log: (line) => console.error(`[invariants] ${new Date().toISOString().slice(11, 19)} ${line}`),
    });
    const started = Date.now();
    const runs: SeedRun[] = [];
    try {
      // Programs are drawn in rounds of 10 from seed, seed+1000, ...: each round reproducible on its own.
      for (let round = 0; runs.reduce((n, r) => n + r.operations, 0) < OPS; round++) {
        const r = await runSeed(stack, { seed: seed + 1000 * round, programs: 10, size: SIZE, width: WIDTH });
        runs.push(r);
        for (const v of r.violations) {
          found.push(`seed ${r.seed}: ${v.violations.join('; ')}\n  program: ${JSON.stringify(v.program)}`);
          // Printed at once too: a long run that dies later still leaves what it found.
          console.error(`[invariants] violation, ${found.at(-1)}`);
        }
        console.error(
          `[invariants] seed ${seed} round ${round}: ${runs.reduce((n, x) => n + x.operations, 0)} operations, ${found.length} violating programs, ${stack.kills} workers killed, ${Math.round((Date.now() - started) / 1000)} s, load ${loadavg()[0]!.toFixed(1)}; ms ${JSON.stringify(r.phases)} ${JSON.stringify(r.spent)}`,
        );
      }
    } finally {
      await stack.close();
    }
    const s = {
      operations: runs.reduce((n, r) => n + r.operations, 0),
      programs: runs.reduce((n, r) => n + r.programs, 0),
      violations: runs.reduce((n, r) => n + r.violations.length, 0),
      ms: runs.reduce((n, r) => n + r.ms, 0),
    };
    rows.push([seed, s.operations, s.programs, s.violations, fmt(s.ms / 1000, 0), fmt((s.operations / s.ms) * 1000)]);
    totals = {
      operations: totals.operations + s.operations,
      programs: totals.programs + s.programs,
      violations: totals.violations + s.violations,
      ms: totals.ms + s.ms,
    };
  }
  for (const f of found) console.error(`[invariants] violation, ${f}`);
  const markdown = [
    `Random programs of ${SIZE} operations from three accounts over REST, tRPC and MCP, ${WIDTH} in flight, each followed by every`,
    `invariant check (test/invariants). Steered around while open: findings ${[...KNOWN_HOLES].join(', ') || 'none'}.`,
    '',
    table(
      ['seed', 'operations', 'programs', 'violating programs', 'duration (s)', 'operations/s'],
      [...rows, ['all', totals.operations, totals.programs, totals.violations, fmt(totals.ms / 1000, 0), '']],
    ),
    ...(found.length ? ['', 'Violations:', '', ...found.map((f) => `- ${f.split('\n')[0]}`)] : []),
  ].join('\n');
  return [{ title: 'Invariants under random programs', markdown }];
}
