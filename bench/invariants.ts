// The invariant harness of test/invariants run long: BENCH_INVARIANT_SEEDS seeds (default 2) from
// BENCH_INVARIANT_FIRST_SEED (default 1), each with programs of BENCH_INVARIANT_SIZE operations (default 200) until
// BENCH_INVARIANT_OPS operations (default 10,000) have run, BENCH_INVARIANT_WIDTH in flight (default 8). One service
// per seed, reused by its programs; fresh accounts and every invariant check per program. Prints operations,
// programs, kills, blips, violations and duration per seed; each violation with its seed and program, to reproduce
// with the same seed. Where the time goes is printed per round (phases, each kind of operation, each check): see
// RELIABILITY.md section 7.
import { loadavg } from 'node:os';
import { fmt, table, type BenchSection } from './support.ts';
import { audioAvailable } from '../test/support/speech-audio.ts';
import { browseAvailable } from '../test/support/youtube-browse-replay.ts';
import { KNOWN_HOLES } from '../test/invariants/known-holes.ts';
import { runSeed, type SeedRun } from '../test/invariants/run-seeds.ts';
import { startInvariantStack } from '../test/invariants/stack.ts';
import { benchDatabase } from './support.ts';

const FIRST_SEED = Number(process.env.BENCH_INVARIANT_FIRST_SEED ?? 1);
const SEEDS = Number(process.env.BENCH_INVARIANT_SEEDS ?? 2);
const OPS = Number(process.env.BENCH_INVARIANT_OPS ?? 10_000);
const SIZE = Number(process.env.BENCH_INVARIANT_SIZE ?? 200);
const WIDTH = Number(process.env.BENCH_INVARIANT_WIDTH ?? 8);
/** Programs per round: about 400 operations, so a round's figures come every few minutes. */
const PER_ROUND = Math.max(1, Math.round(400 / SIZE));

const stamp = () => new Date().toISOString().slice(11, 19);
const sum = (runs: SeedRun[], k: 'operations' | 'programs' | 'blips' | 'kills' | 'ms') =>
  runs.reduce((n, r) => n + r[k], 0);

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
  const all: SeedRun[] = [];
  for (let seed = FIRST_SEED; seed < FIRST_SEED + SEEDS; seed++) {
    // One service per seed: what is stored accumulates over its programs, as on a live service.
    const stack = await startInvariantStack({
      database: await benchDatabase(`inv${seed}`),
      log: (line) => console.error(`[invariants] ${stamp()} ${line}`),
    });
    const started = Date.now();
    const runs: SeedRun[] = [];
    try {
      // Programs are drawn in rounds from seed, seed+1000, ...: each round reproducible on its own
      // (runSeed(stack, { seed: seed + 1000 * round, programs: PER_ROUND, size: SIZE, width: WIDTH })).
      for (let round = 0; sum(runs, 'operations') < OPS; round++) {
        const r = await runSeed(stack, { seed: seed + 1000 * round, programs: PER_ROUND, size: SIZE, width: WIDTH });
        runs.push(r);
        for (const v of r.violations) {
          found.push(`seed ${r.seed}: ${v.violations.join('; ')}\n  program: ${JSON.stringify(v.program)}`);
          // Printed at once too: a long run that dies later still leaves what it found.
          console.error(`[invariants] violation, ${found.at(-1)}`);
        }
        console.error(
          `[invariants] ${stamp()} seed ${seed} round ${round}: ${sum(runs, 'operations')} operations, ${sum(runs, 'programs')} programs, ${found.length} violating programs, ${sum(runs, 'kills')} workers killed, ${sum(runs, 'blips')} blips, ${Math.round((Date.now() - started) / 1000)} s, load ${loadavg()[0]!.toFixed(1)}; ms ${JSON.stringify(r.phases)} ${JSON.stringify(r.spent)}`,
        );
      }
    } finally {
      await stack.close();
    }
    all.push(...runs);
    const violating = runs.reduce((n, r) => n + r.violations.length, 0);
    const wall = (Date.now() - started) / 1000;
    rows.push([
      seed,
      sum(runs, 'operations'),
      sum(runs, 'programs'),
      sum(runs, 'kills'),
      sum(runs, 'blips'),
      violating,
      fmt(wall, 0),
      fmt(sum(runs, 'operations') / wall),
      fmt(loadavg()[0]!, 1),
      runs.at(-1)?.paidWork.modelCalls ?? 0,
      runs.at(-1)?.paidWork.engineCalls ?? 0,
      runs.reduce((n, r) => n + r.paidWork.holdsSettled, 0),
      runs.reduce((n, r) => n + r.paidWork.holdsReleased, 0),
    ]);
  }
  for (const f of found) console.error(`[invariants] violation, ${f}`);
  const markdown = [
    `Random programs of ${SIZE} operations from three accounts over REST, tRPC and MCP, ${WIDTH} in flight, each followed by every`,
    `invariant check (test/invariants). Steered around while open: findings ${[...KNOWN_HOLES].join(', ') || 'none'}.`,
    '',
    table(
      [
        'seed',
        'operations',
        'programs',
        'workers killed',
        'database blips',
        'violating programs',
        'wall (s)',
        'operations/s',
        'load at end',
        'model calls',
        'engine calls',
        'holds settled',
        'holds released',
      ],
      rows,
    ),
    ...(found.length ? ['', 'Violations:', '', ...found.map((f) => `- ${f.split('\n')[0]}`)] : []),
  ].join('\n');
  console.error(
    `[invariants] ${stamp()} done: ${sum(all, 'operations')} operations, ${found.length} violating programs`,
  );
  return [{ title: 'Invariants under random programs', markdown }];
}
