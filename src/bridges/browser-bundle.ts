// Browser code (the website, the MCP App) bundled by esbuild once per version of its sources (and of esbuild) and kept
// on disk, so a start reads a file instead of bundling; `npm start` and the tests need no build step.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where built bundles are kept between starts (the usual place for a package's build caches). */
export const CACHE_DIR = fileURLToPath(new URL('../../node_modules/.cache/subtext-website/', import.meta.url));

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && /\.(ts|css|html)$/.test(e.name) && !e.name.endsWith('.test.ts'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** Builds run one at a time: stopping esbuild's service after one must not cut another short. */
let queue: Promise<unknown> = Promise.resolve();
/** The bundle of `entry` (an absolute path), built now; esbuild's service process is stopped once it is built. */
export const bundle = (entry: string): Promise<string> => {
  const next = queue.then(() => build(entry));
  queue = next.catch(() => {});
  return next;
};

async function build(entry: string): Promise<string> {
  // Loaded only when a bundle must be built: a serving process with a cached bundle never loads esbuild.
  const esbuild = await import('esbuild');
  try {
    const result = await esbuild.build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      target: ['es2022'],
      minify: true,
      legalComments: 'none',
      logLevel: 'silent',
    });
    return result.outputFiles[0]!.text;
  } finally {
    // esbuild keeps a service process (about 22 MB) for the next build; there is none.
    await esbuild.stop();
  }
}

/**
 * The script bundled from `dir`'s `entry`, from the cache when its sources have not changed. `name` keeps bundles of
 * different programs apart. When the cache cannot be written the bundle is still returned, built in this process.
 */
export async function cachedBundle(dir: string, entry: string, name: string): Promise<string> {
  const hash = createHash('sha256').update(createRequire(import.meta.url)('esbuild/package.json').version as string);
  for (const f of await sources(dir))
    hash
      .update(f.slice(dir.length))
      .update('\0')
      .update(await readFile(f))
      .update('\0');
  const file = join(CACHE_DIR, `${name}-${hash.digest('hex').slice(0, 16)}.js`);
  try {
    return await readFile(file, 'utf8');
  } catch {
    // Not built yet for these sources.
  }
  const js = await bundle(join(dir, entry));
  try {
    await mkdir(CACHE_DIR, { recursive: true });
    // Written aside and renamed: a concurrent start never reads half a file.
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, js);
    await rename(tmp, file);
    for (const old of await readdir(CACHE_DIR))
      if (old.startsWith(`${name}-`) && join(CACHE_DIR, old) !== file && !old.endsWith('.tmp'))
        await rm(join(CACHE_DIR, old), { force: true });
  } catch {
    // A read-only install: serve what was built.
  }
  return js;
}
