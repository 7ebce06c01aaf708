// An operation's OpenAPI and MCP descriptions say what a caller needs to call it, in about three sentences; how it
// behaves beyond that is written once, in docs/api.md and docs/mcp.md.
import { describe, expect, it } from 'vitest';
import { extraPaths } from '../../src/bridges/openapi-extra-paths.ts';
import { listProcedures } from '../../src/bridges/procedures.ts';
import { appRouter } from '../../src/router/index.ts';

const MAX_DESCRIPTION = 400;

const descriptions: [where: string, text: string][] = [
  ...listProcedures(appRouter).flatMap(({ path, meta }) => [
    ...(meta.openapi ? [[`${path} (OpenAPI)`, meta.openapi.description ?? ''] as [string, string]] : []),
    ...(meta.mcp ? [[`${meta.mcp.name} (MCP)`, meta.mcp.description] as [string, string]] : []),
  ]),
  ...Object.entries<Record<string, { description: string }>>(extraPaths()).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op.description] as [string, string]),
  ),
];

describe('operation descriptions', () => {
  it.each(descriptions)(`%s: at most ${MAX_DESCRIPTION} characters`, (_where, text) => {
    expect(text.length).toBeGreaterThan(20);
    expect(text.length).toBeLessThanOrEqual(MAX_DESCRIPTION);
  });
});
