// Every regular expression written literally in a source tree: regex literals and `new RegExp(...)` / `RegExp(...)`
// whose pattern folds to a constant string (string and template literals, String.raw, `+`, module-level consts).
// Parsed with swc (TypeScript 7 has no JS compiler API), so a `/` in a comment or a division is never mistaken.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseSync } from '@swc/core';

export interface FoundRegex {
  file: string;
  line: number;
  source: string;
  flags: string;
}
/** A `new RegExp(...)` whose pattern is computed at run time, so it cannot be checked here. */
export interface DynamicRegex {
  file: string;
  line: number;
}

type Node = { type?: string; span?: { start: number }; [k: string]: unknown };

export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (/\.tsx?$/.test(e.name) && !/\.(test|d)\.ts$/.test(e.name)) out.push(p);
  }
  return out.sort();
}

export function regexesIn(file: string, root: string): { found: FoundRegex[]; dynamic: DynamicRegex[] } {
  const text = readFileSync(file, 'utf8');
  const mod = parseSync(text, { syntax: 'typescript', tsx: file.endsWith('.tsx') }) as unknown as Node & {
    body: Node[];
  };
  // swc's spans count on across calls in one process: make them relative to this file.
  const base = (mod.span?.start ?? 1) - firstTokenOffset(text);
  const bytes = Buffer.from(text, 'utf8');
  const lineOf = (n: Node) =>
    bytes
      .subarray(0, Math.max(0, (n.span?.start ?? base) - base))
      .toString('utf8')
      .split('\n').length;
  const rel = path.relative(root, file);
  const consts = new Map<string, Node>();
  walk(mod, (n) => {
    if (n.type === 'VariableDeclarator' && (n.id as Node)?.type === 'Identifier' && n.init)
      consts.set((n.id as { value: string }).value, n.init as Node);
  });
  const fold = (n: Node | undefined, depth = 0): string | undefined => {
    if (!n || depth > 10) return undefined;
    switch (n.type) {
      case 'StringLiteral':
        return n.value as string;
      case 'TemplateLiteral': {
        const quasis = n.quasis as { cooked?: string; raw: string }[];
        return join(
          quasis.map((q) => q.cooked ?? q.raw),
          n.expressions as Node[],
          depth,
        );
      }
      case 'TaggedTemplateExpression': {
        const tag = n.tag as Node & { object?: Node; property?: Node };
        const isRaw =
          tag.type === 'MemberExpression' &&
          (tag.object as { value?: string })?.value === 'String' &&
          (tag.property as { value?: string })?.value === 'raw';
        if (!isRaw) return undefined;
        const t = n.template as Node;
        return join(
          (t.quasis as { raw: string }[]).map((q) => q.raw),
          t.expressions as Node[],
          depth,
        );
      }
      case 'BinaryExpression': {
        if (n.operator !== '+') return undefined;
        const l = fold(n.left as Node, depth + 1);
        const r = fold(n.right as Node, depth + 1);
        return l === undefined || r === undefined ? undefined : l + r;
      }
      case 'Identifier':
        return fold(consts.get(n.value as string), depth + 1);
      case 'ParenthesisExpression':
      case 'TsAsExpression':
      case 'TsConstAssertion':
        return fold(n.expression as Node, depth + 1);
      default:
        return undefined;
    }
  };
  const join = (parts: string[], exprs: Node[], depth: number) => {
    let s = parts[0] ?? '';
    for (let i = 0; i < exprs.length; i++) {
      const v = fold(exprs[i], depth + 1);
      if (v === undefined) return undefined;
      s += v + (parts[i + 1] ?? '');
    }
    return s;
  };
  const found: FoundRegex[] = [];
  const dynamic: DynamicRegex[] = [];
  walk(mod, (n) => {
    if (n.type === 'RegExpLiteral') {
      found.push({ file: rel, line: lineOf(n), source: n.pattern as string, flags: n.flags as string });
    } else if (
      (n.type === 'NewExpression' || n.type === 'CallExpression') &&
      (n.callee as { value?: string })?.value === 'RegExp'
    ) {
      const args = (n.arguments as { expression: Node }[] | undefined) ?? [];
      const source = fold(args[0]?.expression);
      const flags = args[1] ? fold(args[1].expression) : '';
      if (source === undefined || flags === undefined) dynamic.push({ file: rel, line: lineOf(n) });
      else found.push({ file: rel, line: lineOf(n), source, flags });
    }
  });
  return { found, dynamic };
}

function firstTokenOffset(text: string): number {
  // The module span starts at its first token, after leading comments and blank lines.
  const m = /^(?:\s|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*/.exec(text);
  return Buffer.byteLength(m ? m[0] : '', 'utf8');
}

function walk(n: unknown, visit: (n: Node) => void): void {
  if (Array.isArray(n)) for (const c of n) walk(c, visit);
  else if (n && typeof n === 'object') {
    visit(n as Node);
    for (const [k, v] of Object.entries(n)) if (k !== 'span' && v && typeof v === 'object') walk(v, visit);
  }
}
