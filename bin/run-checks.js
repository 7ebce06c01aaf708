// `npm test`'s checks, all at once: each is mostly one process on one core, so side by side they take about as long
// as the slowest instead of the sum. Each one's output is held and printed whole when it ends, and any failure fails
// the run (exit 1) once all have ended, naming the ones that failed.
import { spawn } from 'node:child_process';

const names = process.argv.slice(2);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(name) {
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', '-s', name], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (err) => output.push(Buffer.from(`${err.message}\n`)));
    child.on('close', (code, signal) => {
      const text = Buffer.concat(output).toString('utf8');
      if (text) process.stdout.write(`> ${name}\n${text}${text.endsWith('\n') ? '' : '\n'}`);
      resolve({ name, ok: code === 0, why: signal ?? `exit ${code}` });
    });
  });
}

const failed = (await Promise.all(names.map(run))).filter((r) => !r.ok);
for (const f of failed) console.error(`${f.name} failed (${f.why})`);
process.exit(failed.length ? 1 : 0);
