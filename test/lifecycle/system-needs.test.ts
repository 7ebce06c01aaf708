// The tests' system tools: which test files a missing tool leaves out (a tool's need travels through imports), that
// CI leaves nothing out, and that the README's test command installs them first. Each case runs in a child process
// so that its environment (PATH, CHROMIUM_PATH, CI) is the one the list reads.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/fixture-files.ts';

const root = mkdtempSync(join(tmpdir(), 'subtext-needs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const write = (path: string, text: string) => {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
};
const needsModule = join(REPO_ROOT, 'test/support/system-needs.ts');
// Spelled in pieces: written whole, this file would declare the need itself.
const declare = (tool: string) => `${'needs'}SystemTool('${tool}')`;
write('test/support/browser.ts', `import { needsSystemTool } from '${needsModule}';\n${declare('chromium')};\n`);
write('test/support/helper.ts', "export { x } from './browser.ts';\n");
write('test/web/page.test.ts', "import { x } from '../support/helper.ts';\n");
write('test/web/plain.test.ts', "import { it } from 'vitest';\n");
write('src/a/unit.test.ts', "import { y } from './near.ts';\n");
write('src/a/near.ts', `import { needsSystemTool } from '${needsModule}';\n${declare('ffmpeg')};\n`);

// A PATH whose ffmpeg and ffprobe are there (what is checked is that they can be run), whatever this machine has.
const fakeBin = join(root, 'bin');
for (const tool of ['ffmpeg', 'ffprobe']) {
  write(`bin/${tool}`, '#!/bin/sh\n');
  chmodSync(join(fakeBin, tool), 0o755);
}

function skipped(env: Record<string, string | undefined>): unknown {
  const script = `import('${needsModule}').then((m) => console.log(JSON.stringify(m.suitesToSkip(${JSON.stringify(root)}))))`;
  const { CI: _ci, ...rest } = process.env;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...rest, ...env },
    encoding: 'utf8',
  });
  return JSON.parse(out);
}

describe('system tools the tests need', () => {
  it('leaves out the files that import, at any depth, a module needing a missing tool, and names the tool', () => {
    expect(skipped({ CHROMIUM_PATH: join(root, 'no-chromium'), PATH: fakeBin })).toEqual([
      { file: 'test/web/page.test.ts', needs: ['chromium'] },
    ]);
    const ffmpeg = skipped({ CHROMIUM_PATH: join(root, 'no-chromium'), PATH: join(root, 'empty-bin') });
    expect(ffmpeg).toContainEqual({ file: 'src/a/unit.test.ts', needs: ['ffmpeg'] });
    expect(ffmpeg).not.toContainEqual(expect.objectContaining({ file: 'test/web/plain.test.ts' }));
  });

  it('leaves nothing out with CI set, so a missing tool fails the run there', () => {
    expect(skipped({ CI: 'true', CHROMIUM_PATH: join(root, 'no-chromium') })).toEqual([]);
  });

  it('the module that needs a missing tool throws with the command that installs it', () => {
    const script = `import('${needsModule}').then((m) => m.${declare('chromium')})`;
    const run = () =>
      execFileSync(process.execPath, ['--input-type=module', '-e', script], {
        env: { ...process.env, CHROMIUM_PATH: join(root, 'no-chromium') },
        stdio: 'pipe',
      });
    expect(run).toThrow(/needs chromium .*apt-get install chromium/s);
  });

  it('the README test command provisions them first, and .ci/run runs exactly that command', () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
    expect(pkg.scripts.test).toMatch(/^node bin\/check-node\.js && node bin\/system-needs\.js && /);
    const ci = readFileSync(join(REPO_ROOT, '.ci/run'), 'utf8');
    expect(ci).toMatch(/\nnpm ci --no-audit --no-fund && npm test\n/);
    expect(ci).not.toMatch(/apt-get/);
    expect(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')).toContain('npm ci && npm test');
  });
});
