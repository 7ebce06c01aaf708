// Every regular expression written in src is checked for catastrophic backtracking (ReDoS) with recheck: regex
// literals and RegExp calls whose pattern is a constant. A RegExp built at run time cannot be checked here; the
// few there are must be listed below with the reason they are safe, so a new one fails this test until reviewed.
import path from 'node:path';
import { checkSync } from 'recheck';
import { describe, expect, it } from 'vitest';
import { regexesIn, sourceFiles } from '../support/regex-literals.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

// file -> why the pattern it builds at run time is linear.
const BUILT_AT_RUN_TIME: Record<string, string> = {
  'src/bridges/rest.ts': "a route template of our own router: literal segments and [^/]+ between '/'",
  'src/bridges/rest-routes.ts': "a route template of our own router: literal segments and [^/]+ between '/'",
  'src/web/router.ts': "a page path of our own website: literal segments and ([^/]+) between '/'",
  'src/router/mcp-resources/uri-template.ts':
    "a resource template of our own metas: literal segments, ([^/?#]+) between '/', optional ?name=([^&#]*)",
};

describe('ReDoS: every pattern in src is linear-time', () => {
  const found = sourceFiles(path.join(ROOT, 'src')).map((f) => regexesIn(f, ROOT));
  const patterns = found.flatMap((r) => r.found);
  const dynamic = found.flatMap((r) => r.dynamic);

  it('the scanner sees the patterns (a broken scanner must not pass by finding none)', () => {
    expect(patterns.length).toBeGreaterThan(100);
    expect(patterns).toContainEqual(expect.objectContaining({ file: 'src/domain/accounts/email-address.ts' }));
  });

  it(`recheck finds each pattern safe`, { timeout: 600_000 }, () => {
    const unsafe: string[] = [];
    for (const p of patterns) {
      const r = checkSync(p.source, p.flags, { timeout: 30_000, randomSeed: 1 });
      if (r.status !== 'safe') {
        const why = r.status === 'vulnerable' ? r.complexity.summary : r.status === 'unknown' ? r.error.kind : '';
        unsafe.push(`${p.file}:${p.line} /${p.source}/${p.flags}: ${r.status} ${why}`);
      }
    }
    expect(unsafe).toEqual([]);
  });

  it('patterns built at run time are only the reviewed ones', () => {
    expect([...new Set(dynamic.map((d) => d.file))].sort()).toEqual(Object.keys(BUILT_AT_RUN_TIME).sort());
  });
});
