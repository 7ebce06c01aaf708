// Runs property programs for a list of seeds against one stack: fresh accounts per program, the program with
// `width` operations in flight, then every invariant. Shared by the CI test and `npm run bench -- invariants`.
import fc from 'fast-check';
import { checkInvariants, settle } from './checks.ts';
import { grantsFor, makeAccounts, newLog, type Op, type PaidWork, programArbitrary, runProgram } from './program.ts';
import type { InvariantStack } from './stack.ts';

export interface SeedRun {
  seed: number;
  programs: number;
  operations: number;
  /** Database blips and worker kills the programs ran. */
  blips: number;
  kills: number;
  violations: { program: Op[]; violations: string[] }[];
  ms: number;
  /** Where the time went: making the accounts, running the programs, waiting for their work to end, checking. */
  phases: { accounts: number; run: number; settle: number; check: number };
  /** Milliseconds per kind of operation (summed over the lanes) and per check. */
  spent: Record<string, number>;
  /** Model and engine calls (the service's totals at the end), holds settled and released by the programs. */
  paidWork: PaidWork;
}

/** Settle gives up at 90 s and each check's call at 60 s; a phase still running after this is stuck. */
const PHASE_MS = 300_000;

function bounded<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no end after ${ms / 1000} s`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

export async function runSeed(
  stack: InvariantStack,
  opts: { seed: number; programs: number; size: number; width: number },
): Promise<SeedRun> {
  const t0 = Date.now();
  const run: SeedRun = {
    seed: opts.seed,
    programs: 0,
    operations: 0,
    blips: 0,
    kills: 0,
    violations: [],
    ms: 0,
    phases: { accounts: 0, run: 0, settle: 0, check: 0 },
    spent: {},
    paidWork: { modelCalls: 0, engineCalls: 0, holdsSettled: 0, holdsReleased: 0 },
  };
  // fast-check draws the programs (reproducible from the seed); shrinking a program of live requests is not
  // worth its minutes, so every program runs once and its violations are reported with it.
  const killsBefore = stack.kills;
  const programs = fc.sample(programArbitrary(opts.size), { seed: opts.seed, numRuns: opts.programs });
  for (const program of programs) {
    let t = Date.now();
    const lap = (phase: keyof SeedRun['phases']) => {
      run.phases[phase] += Date.now() - t;
      t = Date.now();
    };
    const accounts = await bounded(makeAccounts(stack, grantsFor(opts.size)), PHASE_MS);
    lap('accounts');
    const log = newLog(stack.asked);
    await runProgram(stack, accounts, program, log, opts.width);
    lap('run');
    // A check that cannot run (or never ends) is reported with the program, not allowed to end or stall the run.
    const report = (what: string) => (e: unknown) => log.violations.push(`${what} threw: ${(e as Error).message}`);
    await bounded(settle(stack, accounts, log), PHASE_MS).catch(report('settle'));
    lap('settle');
    await bounded(checkInvariants(stack, accounts, log), PHASE_MS).catch(report('the checks'));
    lap('check');
    await bounded(Promise.all(accounts.map((a) => a.caller.close())), 30_000).catch(report('closing the MCP clients'));
    run.programs++;
    run.operations += log.operations;
    run.blips += log.blips;
    for (const [k, ms] of Object.entries(log.spent)) run.spent[k] = (run.spent[k] ?? 0) + ms;
    run.paidWork.holdsSettled += log.paidWork.holdsSettled;
    run.paidWork.holdsReleased += log.paidWork.holdsReleased;
    run.paidWork.modelCalls = log.paidWork.modelCalls;
    run.paidWork.engineCalls = log.paidWork.engineCalls;
    if (log.violations.length) run.violations.push({ program, violations: [...new Set(log.violations)] });
  }
  run.kills = stack.kills - killsBefore;
  run.ms = Date.now() - t0;
  return run;
}
