// docs/configuration.md, .env.example and src/config.ts describe the same settings; this keeps the three copies in
// step. A setting added to the schema needs its row in the docs table and its line in .env.example.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/config.ts';

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

/** The schema's settings. */
const settings = Object.keys(ConfigSchema.shape).sort();
/** Read from the environment but not ours to set: the system's own PATH. */
const notInEnvExample = new Set(['PATH']);

/** The first cell of every row of the settings table: one backquoted name per row. */
function documented(markdown: string): string[] {
  const header = markdown.indexOf('| Setting | Default | What it does |');
  expect(header, 'docs/configuration.md has the settings table').toBeGreaterThan(-1);
  const rows = markdown.slice(header).split('\n').slice(2);
  const names: string[] = [];
  for (const row of rows) {
    if (!row.startsWith('|')) break;
    const first = row.split('|')[1]?.trim() ?? '';
    expect(first, `a row names one setting: ${row}`).toMatch(/^`[A-Z][A-Z0-9_]*`$/);
    names.push(first.slice(1, -1));
  }
  return names;
}

/** Every `NAME=` line of .env.example, commented out or not. */
function inEnvExample(text: string): string[] {
  return [...text.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1] ?? '');
}

describe('docs/configuration.md', () => {
  it('has one row per setting of src/config.ts, and no other', () => {
    const names = documented(read('docs/configuration.md'));
    expect(names.length, 'no setting has two rows').toBe(new Set(names).size);
    expect([...names].sort()).toEqual(settings);
  });
});

describe('.env.example', () => {
  it('names only real settings', () => {
    const unknown = inEnvExample(read('.env.example')).filter((name) => !settings.includes(name));
    expect(unknown).toEqual([]);
  });

  it('names every setting', () => {
    const listed = new Set(inEnvExample(read('.env.example')));
    expect(settings.filter((name) => !listed.has(name) && !notInEnvExample.has(name))).toEqual([]);
  });
});
