// The clients' generated files (the TypeScript package's AppRouter and REST declarations, the Python package's
// operations) match the router and the OpenAPI document they come from: regenerated into temporary folders and
// compared with what is committed (`npm run clients:generate` rewrites them).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { committedFiles, generateClients } from '../../clients/typescript/generate/generate.ts';

it('the committed AppRouter and REST declarations and Python operations are what the generator writes now', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'subtext-client-generated-'));
  try {
    await generateClients(join(dir, 'typescript'), join(dir, 'python'));
    const fresh = await committedFiles(join(dir, 'typescript'), join(dir, 'python'));
    const committed = await committedFiles();
    for (const [file, text] of Object.entries(fresh)) {
      expect(committed[file] === text, `clients/${file} is stale: run npm run clients:generate`).toBe(true);
    }
    // The router's declaration imports nothing of the server: @trpc/server's types only.
    const imports = [
      ...fresh['typescript/src/generated/app-router.d.ts']!.matchAll(/(?:from|import\()\s*['"]([^'"]+)['"]/g),
    ].map((m) => m[1]);
    expect(new Set(imports)).toEqual(new Set(['@trpc/server']));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 240_000);
