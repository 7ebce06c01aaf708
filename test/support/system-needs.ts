// The system tools a suite needs (the list and the install step are bin/system-needs.js). A module that runs one
// says so with a call at its top; a test file needs whatever the modules it imports need. Where a tool is missing
// and CI is not set, vitest.config.ts leaves those files out and the run ends with a block naming them
// (global-setup.ts); with CI set nothing is left out, and the call fails the suite with the command that fixes it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { installCommand, SYSTEM_NEEDS } from '../../bin/system-needs.js';

export type SystemNeed = keyof typeof SYSTEM_NEEDS;

const present = new Map<SystemNeed, boolean>();
const isPresent = (need: SystemNeed) => present.get(need) ?? present.set(need, SYSTEM_NEEDS[need].present()).get(need);

/** Declares that this module runs `need`; throws (naming the fix) where it is missing. */
export function needsSystemTool(need: SystemNeed): void {
  if (!isPresent(need)) throw new Error(`needs ${need} (${SYSTEM_NEEDS[need].why}): ${installCommand([need])}`);
}

export interface SkippedSuite {
  file: string;
  needs: SystemNeed[];
}

/** The test files under `root` that cannot run here: none with CI set, where a missing tool must fail the run. */
export function suitesToSkip(root: string): SkippedSuite[] {
  if (process.env.CI) return [];
  const missing = (Object.keys(SYSTEM_NEEDS) as SystemNeed[]).filter((n) => !isPresent(n));
  if (missing.length === 0) return [];
  const graph = new ImportGraph();
  return testFiles(root)
    .map((file) => ({ file: relative(root, file), needs: [...graph.needsOf(file)].filter((n) => missing.includes(n)) }))
    .filter((s) => s.needs.length > 0);
}

const DECLARATION = /needsSystemTool\('(\w+)'\)/g;
const RELATIVE_IMPORT = /(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g;

/** What each module needs, its own declarations and its relative imports', read once per file. */
class ImportGraph {
  private readonly memo = new Map<string, Set<SystemNeed>>();

  needsOf(file: string): Set<SystemNeed> {
    const known = this.memo.get(file);
    if (known) return known;
    const needs = new Set<SystemNeed>();
    this.memo.set(file, needs); // an import cycle reads the partial set
    const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
    for (const [, need = ''] of text.matchAll(DECLARATION)) if (need in SYSTEM_NEEDS) needs.add(need as SystemNeed);
    for (const [, spec] of text.matchAll(RELATIVE_IMPORT))
      for (const need of this.needsOf(resolve(dirname(file), spec ?? ''))) needs.add(need);
    return needs;
  }
}

function testFiles(root: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const path = join(dir, e.name);
      if (e.isDirectory()) return e.name === 'node_modules' ? [] : walk(path);
      return e.name.endsWith('.test.ts') ? [path] : [];
    });
  return ['test', 'src'].flatMap((d) => walk(join(root, d)));
}
