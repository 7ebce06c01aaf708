import { describe, expect, it } from 'vitest';
import { COMMANDS } from './command-list.ts';
import { PREPARE } from './commands.ts';
import { commandHelp, groupHelp, overview } from './help.ts';

describe('CLI help', () => {
  it('the overview lists every command with its summary, the shared options and examples', () => {
    const text = overview(COMMANDS);
    for (const c of COMMANDS) expect(text).toContain(`  ${c.name}`);
    expect(text).toMatch(/-h, --help/);
    expect(text).toMatch(/--json/);
    expect(text).toMatch(/Examples:\n {2}KEY=\$\(npm run -s cli -- keys create/);
  });

  it.each(COMMANDS.map((c) => [c.name, c] as const))(
    '%s --help: usage, aligned options, and runnable examples',
    (name, c) => {
      const text = commandHelp(c);
      expect(text).toContain(`Usage: npm run cli -- ${name}`);
      const options = text.split('Options:\n')[1]!.split('\n\n')[0]!.split('\n');
      expect(options.at(-1)).toMatch(/^ {2}-h, --help +this help$/);
      // Every description starts in the same column.
      const starts = options.map((l) => /^ {2}\S.*?\S {2,}(?=\S)/.exec(l)![0].length);
      expect(new Set(starts).size).toBe(1);
      const examples = text.split('Examples:\n')[1]!.split('\n');
      expect(examples.length).toBeGreaterThan(0);
      for (const e of examples) expect(e).toMatch(new RegExp(`npm run (-s )?cli -- ${name}`));
    },
  );

  it('every listed command has an implementation, and every implementation is listed', () => {
    expect(Object.keys(PREPARE).sort()).toEqual(COMMANDS.map((c) => c.name).sort());
  });

  it('a group word lists its commands', () => {
    expect(
      groupHelp(
        'keys',
        COMMANDS.filter((c) => c.name.startsWith('keys ')),
      ),
    ).toMatch(/keys create[\s\S]*keys list[\s\S]*keys revoke/);
  });
});
