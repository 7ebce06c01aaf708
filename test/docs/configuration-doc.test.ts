// docs/configuration.md, .env.example and src/config.ts describe the same settings; this keeps the three copies in
// step. A setting added to the schema needs its row in the docs table and its line in .env.example.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/config.ts';
import { DEFAULT_CHAINS } from '../../src/infra/youtube/client-chains.ts';

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

/** The schema's settings. */
const settings = Object.keys(ConfigSchema.shape).sort();
/** Read from the environment but not ours to set: the system's own PATH. */
const notInEnvExample = new Set(['PATH']);

/**
 * Defaults the schema leaves unset, and the table says in words or takes from elsewhere: what the row must say.
 * Every other row's Default is the schema's default, written as the table writes values.
 */
const DEFAULTS_IN_WORDS: Record<string, string> = {
  PUBLIC_URL: '`http://localhost:PORT`',
  YOUTUBE_CAPTION_CLIENTS: `\`${DEFAULT_CHAINS.captions.join(',')}\``,
  YOUTUBE_METADATA_CLIENTS: `\`${DEFAULT_CHAINS.metadata.join(',')}\``,
  YOUTUBE_STREAM_CLIENTS: `\`${DEFAULT_CHAINS.streams.join(',')}\``,
  YOUTUBE_CANARY_INTERVAL: `${defaultOf('YOUTUBE_CANARY_INTERVAL') / 60}m`,
  FFMPEG_PATH: 'ffmpeg on `PATH`, else the packaged one',
  BLOB_DIR: 'unset (PostgreSQL)',
  S3_ENDPOINT: 'unset (AWS)',
  S3_PUBLIC_ENDPOINT: '`S3_ENDPOINT`',
  SIGNING_SECRET: 'generated, stored in the database',
  PATH: "the environment's",
};

/** What every setting is when the environment sets nothing. */
function defaultOf(name: string) {
  const parsed = ConfigSchema.safeParse({});
  expect(parsed.success, 'the schema parses an empty environment').toBe(true);
  return (parsed.data as Record<string, unknown>)[name] as number;
}

/** A default as the table writes it: numbers bare, other values in backquotes, nothing as unset or empty. */
function asWritten(value: unknown): string[] {
  if (value === undefined) return ['unset'];
  if (value === '') return ['empty'];
  if (Array.isArray(value) && value.length === 0) return ['unset', 'empty'];
  if (value && typeof value === 'object' && Object.keys(value).length === 0) return ['unset', 'empty'];
  if (typeof value === 'number') return [String(value)];
  return [`\`${Array.isArray(value) ? value.join(',') : String(value)}\``];
}

/** The first two cells of every row: setting -> Default. */
function documentedDefaults(markdown: string): Map<string, string> {
  const header = markdown.indexOf('| Setting | Default | What it does |');
  const rows = new Map<string, string>();
  for (const row of markdown.slice(header).split('\n').slice(2)) {
    if (!row.startsWith('|')) break;
    const [name, value] = row
      .split('|')
      .slice(1, 3)
      .map((c) => c.trim());
    rows.set((name ?? '').slice(1, -1), value ?? '');
  }
  return rows;
}

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

  it("says each setting's default as the schema has it", () => {
    for (const [name, written] of documentedDefaults(read('docs/configuration.md'))) {
      const want = DEFAULTS_IN_WORDS[name];
      if (want !== undefined) expect(written, name).toBe(want);
      else expect(asWritten(defaultOf(name)), name).toContain(written);
    }
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
