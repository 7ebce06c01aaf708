// Bench 6: time from `npm start` (the README's one command) to a healthy /healthz, against an existing, migrated
// database, as a user restarting the service sees it. The service's process group is stopped after each run.
import { spawn } from 'node:child_process';
import { benchDatabase, fmt, freePort, percentile, REPO, sleep, table, type BenchSection } from './support.ts';

const RUNS = Number(process.env.BENCH_STARTS ?? 5);

async function startOnce(databaseUrl: string): Promise<number> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    cwd: REPO,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true, // its own process group: npm, a shell and node are stopped together
  });
  let stderr = '';
  child.stderr!.on('data', (c) => (stderr = (stderr + c).slice(-4000)));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited ${child.exitCode}: ${stderr}`);
      try {
        const r = await fetch(`http://127.0.0.1:${port}/healthz`);
        if (r.ok) return performance.now() - t0;
      } catch {
        /* not listening yet */
      }
      if (performance.now() - t0 > 60_000) throw new Error(`no healthy /healthz after 60 s: ${stderr}`);
      await sleep(10);
    }
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    process.kill(-child.pid!, 'SIGTERM');
    const t = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 15_000);
    await exited;
    clearTimeout(t);
  }
}

export async function run(): Promise<BenchSection[]> {
  const db = await benchDatabase('start');
  try {
    // First start applies nothing new (benchDatabase migrated it) but creates the service's own rows; not counted.
    await startOnce(db.url);
    const ms: number[] = [];
    for (let i = 0; i < RUNS; i++) ms.push(await startOnce(db.url));
    const p50 = percentile(ms, 50);
    return [
      {
        title: '6. Start',
        markdown: [
          `\`npm start\` (package.json: \`${(await import('../package.json', { with: { type: 'json' } })).default.scripts.start}\`), NODE_ENV=production, against an existing migrated`,
          `database, until GET /healthz answers 200 (polled every 10 ms); ${RUNS} starts after one not counted.`,
          '',
          table(
            ['run', ...ms.map((_, i) => String(i + 1)), 'median'],
            [['ms', ...ms.map((m) => fmt(m, 0)), fmt(p50, 0)]],
          ),
          '',
          `**Median ${fmt(p50 / 1000, 2)} s** (target: under 2 s) — ${p50 < 2000 ? 'met' : 'missed'}.`,
        ].join('\n'),
      },
    ];
  } finally {
    await db.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const s of await run()) console.log(`## ${s.title}\n\n${s.markdown}\n`);
}
