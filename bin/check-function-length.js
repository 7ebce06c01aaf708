// Lists the functions, methods and arrow functions in src/ (tests excepted) over 60 lines, the ten longest first.
// With `--max N` the limit is N and the run fails (exit 1) when any function is over it. Parsed with swc (TypeScript 7
// has no JS compiler API), as test/support/regex-literals.ts does.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseSync } from '@swc/core';

/** `--max N` (or `--max=N`): the limit, and fail above it; without it, list functions over 60 lines and pass. */
function maxOption(args) {
  const i = args.findIndex((a) => a === '--max' || a.startsWith('--max='));
  if (i < 0) return null;
  const value = args[i].includes('=') ? args[i].slice('--max='.length) : args[i + 1];
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`--max needs a whole number of lines, got ${value ?? 'nothing'}`);
    process.exit(2);
  }
  return n;
}

const MAX = maxOption(process.argv.slice(2));
const LIMIT = MAX ?? 60;
const root = resolve(import.meta.dirname, '..');
const FUNCTIONS = new Set([
  'FunctionDeclaration',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'ClassMethod',
  'PrivateMethod',
  'Constructor',
  'GetterProperty',
  'SetterProperty',
  'MethodProperty',
]);

function sourceFiles(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (/\.tsx?$/.test(e.name) && !/\.(test|d)\.ts$/.test(e.name)) out.push(p);
  }
  return out.sort();
}

function walk(n, visit) {
  if (Array.isArray(n)) for (const c of n) walk(c, visit);
  else if (n && typeof n === 'object') {
    visit(n);
    for (const [k, v] of Object.entries(n)) if (k !== 'span' && v && typeof v === 'object') walk(v, visit);
  }
}

/** Every function in one file as { file, line, lines, name }. swc spans are UTF-8 byte offsets that count on across
 *  calls in one process, so each file's are made relative to its module span. */
function functionsIn(file) {
  const text = readFileSync(file, 'utf8');
  const mod = parseSync(text, { syntax: 'typescript', tsx: file.endsWith('.tsx') });
  const leading = /^(?:\s|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*/.exec(text)[0];
  const base = mod.span.start - Buffer.byteLength(leading, 'utf8');
  const bytes = Buffer.from(text, 'utf8');
  const lineAt = (offset) =>
    bytes
      .subarray(0, Math.max(0, offset - base))
      .toString('utf8')
      .split('\n').length;
  const found = [];
  const names = new WeakMap();
  walk(mod, (n) => {
    // Name a function by the declarator, property or method that holds it.
    if (n.type === 'VariableDeclarator' && n.init && n.id?.value) names.set(n.init, n.id.value);
    if (n.type === 'KeyValueProperty' && n.value && n.key?.value) names.set(n.value, n.key.value);
    if (!FUNCTIONS.has(n.type)) return;
    const start = lineAt(n.span.start);
    const end = lineAt(n.span.end);
    const name = n.identifier?.value ?? n.key?.value ?? names.get(n) ?? '(anonymous)';
    found.push({ file: relative(root, file), line: start, lines: end - start + 1, name });
  });
  return found;
}

const all = sourceFiles(join(root, 'src')).flatMap(functionsIn);
all.sort((a, b) => b.lines - a.lines);
const over = all.filter((f) => f.lines > LIMIT);
console.log(`${all.length} functions in src; ${over.length} over ${LIMIT} lines. Longest:`);
for (const f of all.slice(0, 10)) console.log(`  ${String(f.lines).padStart(4)}  ${f.file}:${f.line}  ${f.name}`);
if (over.length > 10)
  for (const f of over.slice(10)) console.log(`  ${String(f.lines).padStart(4)}  ${f.file}:${f.line}  ${f.name}`);
process.exitCode = MAX !== null && over.length > 0 ? 1 : 0;
