// An MCP tool is its procedure: what MCP shows of it (text, links, resource template, task behaviour) is declared in
// its `meta.mcp` in src/router/, so no bridge file names a tool, in code or in a comment (issue 34).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listProcedures } from '../../src/bridges/procedures.ts';
import { appRouter } from '../../src/router/index.ts';

const BRIDGES = new URL('../../src/bridges/', import.meta.url).pathname;
const files = readdirSync(BRIDGES, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
const tools = listProcedures(appRouter).flatMap((e) => (e.meta.mcp ? [e.meta.mcp.name] : []));

describe('the bridges name no MCP tool', () => {
  it('finds the tools and the files', () => {
    expect(tools.length).toBeGreaterThan(10);
    expect(files).toContain('mcp/endpoint.ts');
  });

  it('no file under src/bridges/ names a tool', () => {
    const named = files.flatMap((f) => {
      const text = readFileSync(join(BRIDGES, f), 'utf8');
      return tools.filter((t) => new RegExp(`\\b${t}\\b`).test(text)).map((t) => `${f}: ${t}`);
    });
    expect(named).toEqual([]);
  });

  it('every mcp file of the bridges is in src/bridges/mcp/', () => {
    expect(files.filter((f) => /(^|\/)mcp[^/]*\.ts$/.test(f) && !f.startsWith('mcp/'))).toEqual([]);
  });
});
