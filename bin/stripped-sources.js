// Node strips the types of our TypeScript itself, but its stripper (swc built to WebAssembly) costs about 20 MiB
// resident and a good part of a second at every start. This hook keeps each file's stripped text in
// node_modules/.cache/subtext-ts/, named by a hash of the source and the Node version, and hands Node plain JavaScript:
// a start after the first never loads the stripper. Stripping keeps every position, so stack traces point at the .ts
// lines; a file the stripper refuses goes to Node's own loader, which says why.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import * as nodeModule from 'node:module'; // a namespace: Node 20 has neither export, and must reach check-node.js
import { fileURLToPath } from 'node:url';

const CACHE_DIR = fileURLToPath(new URL('../node_modules/.cache/subtext-ts/', import.meta.url));
const OURS = new URL('../', import.meta.url).href;
const NODE_MODULES = new URL('../node_modules/', import.meta.url).href;

/** The stripped text of one source, from the cache or stripped now (and kept); undefined when it cannot be stripped. */
function stripped(source) {
  const file = `${CACHE_DIR}${createHash('sha256').update(process.version).update(source).digest('hex')}.js`;
  try {
    return readFileSync(file, 'utf8');
  } catch {
    /* not kept yet */
  }
  let js;
  // stripTypeScriptTypes warns that it is experimental; Node's own loading of .ts, which it replaces here, does not.
  const emitWarning = process.emitWarning;
  process.emitWarning = () => {};
  try {
    js = nodeModule.stripTypeScriptTypes(source, { mode: 'strip' });
  } catch {
    return undefined;
  } finally {
    process.emitWarning = emitWarning;
  }
  try {
    mkdirSync(CACHE_DIR, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, js);
    renameSync(tmp, file); // whole or not at all, when two processes start at once
  } catch {
    /* a read-only install: strip at every start, as Node would */
  }
  return js;
}

/** Our own .ts modules (src/, db/) come from the cache; everything else loads as Node loads it. */
export function useStrippedSources() {
  if (typeof nodeModule.registerHooks !== 'function' || typeof nodeModule.stripTypeScriptTypes !== 'function') return;
  nodeModule.registerHooks({
    load(url, context, nextLoad) {
      if (!url.endsWith('.ts') || !url.startsWith(OURS) || url.startsWith(NODE_MODULES)) return nextLoad(url, context);
      const js = stripped(readFileSync(fileURLToPath(url), 'utf8'));
      if (js === undefined) return nextLoad(url, context);
      return { format: 'module', source: js, shortCircuit: true };
    },
  });
}
