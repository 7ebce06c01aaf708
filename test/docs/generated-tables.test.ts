// The docs' reference tables (operations, prices, errors, MCP tools, article categories) are what
// src/bridges/reference-tables.ts writes from the router, the error table and the prices now:
// `npm run docs:generate` rewrites them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED_DOCS, withGeneratedTables } from '../../src/bridges/reference-tables.ts';

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

describe('generated doc tables', () => {
  it.each(Object.keys(GENERATED_DOCS))('%s holds the tables the generator writes now', (file) => {
    const committed = read(file);
    expect(withGeneratedTables(file, committed) === committed, `${file} is stale: run npm run docs:generate`).toBe(
      true,
    );
  });

  it('refuses a doc that lost one of its tables, or names a table that does not exist', () => {
    expect(() => withGeneratedTables('docs/mcp.md', 'no tables here\n')).toThrow(/lacks <!-- generated:tools -->/);
    expect(() => withGeneratedTables('docs/x.md', '<!-- generated:nope -->\n<!-- /generated:nope -->\n')).toThrow(
      /no generated table is called "nope"/,
    );
  });
});
