// The client package's generated files match the router and the OpenAPI document they come from: regenerated into a
// temporary folder and compared with what is committed (`npm run clients:generate` rewrites them).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { committedFiles, generateClients } from '../../clients/typescript/generate/generate.ts';

it('the committed AppRouter and REST declarations are what the generator writes now', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'subtext-client-generated-'));
  try {
    await generateClients(dir);
    const fresh = await committedFiles(dir);
    const committed = await committedFiles();
    for (const [file, text] of Object.entries(fresh)) {
      expect(
        committed[file] === text,
        `clients/typescript/src/generated/${file} is stale: run npm run clients:generate`,
      ).toBe(true);
    }
    // The router's declaration imports nothing of the server: @trpc/server's types only.
    const imports = [...fresh['app-router.d.ts']!.matchAll(/(?:from|import\()\s*['"]([^'"]+)['"]/g)].map((m) => m[1]);
    expect(new Set(imports)).toEqual(new Set(['@trpc/server']));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 240_000);
