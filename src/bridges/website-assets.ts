import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const WEB_DIR = fileURLToPath(new URL('../web/', import.meta.url));
/** Where built bundles are kept between starts (the usual place for a package's build caches). */
const CACHE_DIR = fileURLToPath(new URL('../../node_modules/.cache/subtext-website/', import.meta.url));

export interface WebsiteAssets {
  js: string;
  css: string;
  version: string;
}

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && /\.(ts|css)$/.test(e.name) && !e.name.endsWith('.test.ts'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** Bundles the website's script; esbuild's service process (about 22 MB) is stopped once the bundle is built. */
export async function bundleWebsite(): Promise<string> {
  // Loaded only when a bundle must be built: a serving process with a cached bundle never loads esbuild.
  const esbuild = await import('esbuild');
  try {
    const result = await esbuild.build({
      entryPoints: [`${WEB_DIR}main.ts`],
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
    await esbuild.stop();
  }
}

/**
 * The website's script, bundled by esbuild once per version of its sources (and of esbuild) and kept on disk, so
 * starting the service reads a file instead of bundling; `npm start` and the tests still need no build step. When the
 * cache cannot be written the bundle is still served, built in this process.
 */
export async function loadWebsiteAssets(): Promise<WebsiteAssets> {
  const files = await sources(WEB_DIR);
  const hash = createHash('sha256').update(createRequire(import.meta.url)('esbuild/package.json').version as string);
  for (const f of files)
    hash
      .update(f.slice(WEB_DIR.length))
      .update('\0')
      .update(await readFile(f))
      .update('\0');
  const key = hash.digest('hex').slice(0, 16);
  const file = join(CACHE_DIR, `app-${key}.js`);
  let js: string;
  try {
    js = await readFile(file, 'utf8');
  } catch {
    js = await bundleWebsite();
    try {
      await mkdir(CACHE_DIR, { recursive: true });
      // Written aside and renamed: a concurrent start never reads half a file.
      const tmp = `${file}.${process.pid}.tmp`;
      await writeFile(tmp, js);
      await rename(tmp, file);
      for (const old of await readdir(CACHE_DIR))
        if (old !== `app-${key}.js` && !old.endsWith('.tmp')) await rm(join(CACHE_DIR, old), { force: true });
    } catch {
      // A read-only install: serve what was built.
    }
  }
  const css = await readFile(`${WEB_DIR}styles.css`, 'utf8');
  const version = createHash('sha256').update(js).update(css).digest('hex').slice(0, 12);
  return { js, css, version };
}

// Run directly (`npx tsx src/bridges/website-assets.ts`) to fill the cache ahead of the first start, e.g. in an image build.
if (import.meta.url === `file://${process.argv[1]}`) {
  const a = await loadWebsiteAssets();
  console.log(`website bundle ${a.version} (${(a.js.length / 1024).toFixed(0)} KiB) cached in ${CACHE_DIR}`);
}
