import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { CACHE_DIR, cachedBundle } from './browser-bundle.ts';

const WEB_DIR = fileURLToPath(new URL('../web/', import.meta.url));

export interface WebsiteAssets {
  js: string;
  css: string;
  version: string;
}

/** The website's script (bundled once per version of its sources, browser-bundle.ts) and its stylesheet. */
export async function loadWebsiteAssets(): Promise<WebsiteAssets> {
  const js = await cachedBundle(WEB_DIR, 'main.ts', 'app');
  const css = await readFile(`${WEB_DIR}styles.css`, 'utf8');
  const version = createHash('sha256').update(js).update(css).digest('hex').slice(0, 12);
  return { js, css, version };
}

// Run directly (`npx tsx src/bridges/website-assets.ts`) to fill the cache ahead of the first start, e.g. in an image build.
if (import.meta.url === `file://${process.argv[1]}`) {
  const a = await loadWebsiteAssets();
  console.log(`website bundle ${a.version} (${(a.js.length / 1024).toFixed(0)} KiB) cached in ${CACHE_DIR}`);
}
