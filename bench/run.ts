// `npm run bench`: every benchmark in turn, printed as it finishes and written to BENCHMARKS.md with the date and the
// machine. Figures come only from here; tests never assert timings. Needs a PostgreSQL (TEST_DATABASE_URL or the local
// one on 127.0.0.1:5432, as the tests), ffmpeg, and the shared YouTube fixtures. `npm run bench -- hot-path search`
// runs a subset (the file is then written with only those sections). Search: BENCH_ARTICLES (sizes, default
// 100000,300000), BENCH_SEARCHES (requests per kind), BENCH_SEARCH_DB (a kept, reused database; bench/search.ts),
// BENCH_GEN_WORKERS (connections generating articles, default 2) and BENCH_SEARCH_SKIP (kinds left out, by name).
// Soak: BENCH_SOAK_SECONDS (default 600) to try it shorter.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedAvailable } from '../test/support/fixture-files.ts';
import { machine, REPO, type BenchSection } from './support.ts';

const BENCHES: Record<string, () => Promise<{ run(): Promise<BenchSection[]> }>> = {
  'hot-path': () => import('./hot-path.ts'),
  'cache-miss': () => import('./cache-miss.ts'),
  frames: () => import('./frames.ts'),
  search: () => import('./search.ts'),
  start: () => import('./start.ts'),
  speech: () => import('./speech.ts'),
  invariants: () => import('./invariants.ts'),
  soak: () => import('./soak.ts'),
  'thread-pool': () => import('./thread-pool.ts'),
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const names = wanted.length ? wanted : Object.keys(BENCHES);
if (!sharedAvailable)
  throw new Error('the shared YouTube fixtures are needed (../shared/fixtures/youtube or YOUTUBE_FIXTURES_DIR)');

const started = Date.now();
const sections: BenchSection[] = [];
for (const name of names) {
  const load = BENCHES[name];
  if (!load) throw new Error(`no bench ${name}; have ${Object.keys(BENCHES).join(', ')}`);
  const t0 = Date.now();
  console.error(`[bench] ${name}...`);
  const out = await (await load()).run();
  for (const s of out) console.log(`## ${s.title}\n\n${s.markdown}\n`);
  console.error(`[bench] ${name} took ${Math.round((Date.now() - t0) / 1000)} s`);
  sections.push(...out);
}
sections.sort((a, b) => a.title.localeCompare(b.title));

const doc = [
  '# Benchmarks',
  '',
  `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine()}, PostgreSQL on the same machine.`,
  `Reproduce with \`npm run bench\` (whole run: ${Math.round((Date.now() - started) / 1000)} s). Numbers in one table were measured side by side in the same run;`,
  'compare ratios rather than absolute figures across machines.',
  '',
  ...sections.map((s) => `## ${s.title}\n\n${s.markdown}\n`),
].join('\n');
// BENCH_OUT writes elsewhere (to compare a run with the committed figures before replacing them).
writeFileSync(process.env.BENCH_OUT ?? join(REPO, 'BENCHMARKS.md'), doc);
console.error(`[bench] wrote BENCHMARKS.md in ${Math.round((Date.now() - started) / 1000)} s`);
process.exit(0);
