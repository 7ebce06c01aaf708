// Building the website's bundle leaves no esbuild service process running (it held about 22 MB for the life of the
// service). Checked through /proc: the children of this process whose command line names esbuild.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { bundle } from '../../src/bridges/browser-bundle.ts';

function esbuildChildren(): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .flatMap((pid) => {
      try {
        // The parent pid is the second field after the parenthesized command name.
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        return ppid === process.pid && cmd.includes('esbuild') ? [Number(pid)] : [];
      } catch {
        return []; // gone meanwhile
      }
    });
}

describe.skipIf(process.platform !== 'linux')('the website bundle', () => {
  it('is built, and esbuild stops its service process afterwards', async () => {
    // Files share their worker (isolate: false): a service another file's esbuild copy started may already run.
    const before = esbuildChildren();
    const esbuild = await import('esbuild');
    await esbuild.transform('let a = 1', {}); // the check sees a running service
    expect(esbuildChildren().length).toBeGreaterThan(0);
    const js = await bundle(fileURLToPath(new URL('../../src/web/main.ts', import.meta.url)));
    expect(js.length).toBeGreaterThan(1000);
    // The service is told to stop; its process exits, and is reaped, a moment later on a loaded machine.
    const started = () => esbuildChildren().filter((pid) => !before.includes(pid));
    for (let end = Date.now() + 5_000; started().length > 0 && Date.now() < end; )
      await new Promise((r) => setTimeout(r, 20));
    expect(started()).toEqual([]);
  });
});
