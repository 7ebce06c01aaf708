import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { freePort } from '../../src/infra/database/free-port.ts';
import { createTestDatabase } from '../support/databases.ts';

// No container engine runs here, so the image itself is not built in tests. What the image runs is: the same
// `npm run build` its build stage runs, then `node src/main.js` and the HEALTHCHECK command from the build output.
const root = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);
const dockerfile = readFileSync(`${root}/Dockerfile`, 'utf8');
const compose = parse(readFileSync(`${root}/deploy/compose.yaml`, 'utf8'), { merge: true });

describe('Dockerfile and compose file', () => {
  it('the image: multi-stage Node 24 slim, production dependencies only, ffmpeg, non-root, healthcheck, no tsx', () => {
    const stages = [...dockerfile.matchAll(/^FROM (\S+)(?: AS (\w+))?$/gm)].map((m) => [m[1], m[2]]);
    expect(stages).toEqual([
      ['node:24-bookworm-slim', 'build'],
      ['node:24-bookworm-slim', 'deps'],
      ['node:24-bookworm-slim', undefined],
    ]);
    const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect(dockerfile).toMatch(/^RUN npm ci --omit=dev /m);
    expect(runtime).toMatch(/apt-get install -y --no-install-recommends ffmpeg/);
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^HEALTHCHECK .*\n\s+CMD \["node", "src\/healthcheck.js"\]$/m);
    expect(runtime).toMatch(
      /^CMD \["node", "--max-semi-space-size=8", "--max-old-space-size=1024", "--expose-gc", "src\/main.js"\]$/m,
    ); // as npm start runs it
    expect(runtime).toMatch(/^\s+GLIBC_TUNABLES=glibc\.malloc\.mmap_threshold=65536 \\$/m); // large buffers mapped, as npm start does
    expect(runtime).not.toMatch(/tsx/);
    const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8'));
    expect(pkg.dependencies.tsx).toBeUndefined();
    expect(pkg.dependencies.typescript).toBeUndefined();
  });

  it('compose: PostgreSQL, Typesense, two API instances and a worker, each probed on /readyz', () => {
    const s = compose.services;
    expect(Object.keys(s).sort()).toEqual(['api-1', 'api-2', 'postgres', 'typesense', 'worker']);
    expect([s['api-1'].environment.MODE, s['api-2'].environment.MODE, s.worker.environment.MODE]).toEqual([
      'api',
      'api',
      'worker',
    ]);
    for (const name of ['api-1', 'api-2', 'worker']) {
      expect(s[name].image).toBe('subtext:local');
      expect(s[name].healthcheck.test).toEqual(['CMD', 'node', 'src/healthcheck.js', '/readyz']);
      expect(s[name].depends_on).toEqual({
        postgres: { condition: 'service_healthy' },
        typesense: { condition: 'service_healthy' },
      });
      expect(s[name].environment).toMatchObject({
        SEARCH_BACKEND: 'typesense',
        TYPESENSE_URL: 'http://typesense:8108',
        METRICS_PORT: '9100',
      });
    }
    expect(s.worker.ports).toBeUndefined();
    expect(s.postgres.healthcheck.test[1]).toBe('pg_isready');
  });
});

describe('the built service, as the image runs it', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    await run('npm', ['run', 'build'], { cwd: root });
  }, 400_000);
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await db?.drop();
  });

  const start = (env: Record<string, string>) => {
    const child = spawn(process.execPath, ['build/src/main.js'], {
      cwd: root,
      env: { PATH: process.env.PATH, DATABASE_URL: db.url, LOG_LEVEL: 'warn', NODE_ENV: 'production', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { child, exited, stderr: () => stderr };
  };
  /**
   * The image's HEALTHCHECK command, retried like Docker does (every second here). Up to three minutes: on a loaded
   * machine the first start (migrations, esbuild bundling the website) takes well over a minute.
   */
  const healthy = async (env: Record<string, string>, path: string) => {
    for (const until = Date.now() + 180_000; Date.now() < until; ) {
      const ok = await run(process.execPath, ['build/src/healthcheck.js', path], {
        cwd: root,
        env: { PATH: process.env.PATH, ...env },
      }).then(
        () => true,
        () => false,
      );
      if (ok) return true;
      await new Promise((r) => setTimeout(r, 1000));
    }
    return false;
  };

  it('an API instance starts from the compiled JavaScript, passes the healthcheck on /healthz and /readyz, and stops on SIGTERM', async () => {
    const port = String(await freePort());
    const api = start({ MODE: 'api', PORT: port });
    expect(await healthy({ PORT: port }, '/healthz'), api.stderr()).toBe(true);
    expect(await healthy({ PORT: port }, '/readyz')).toBe(true);
    const home = await fetch(`http://127.0.0.1:${port}/`);
    expect(home.status).toBe(200); // the website is bundled from the copied sources at start
    expect((await fetch(`http://127.0.0.1:${port}/api/v1/credits`)).status).toBe(401);
    api.child.kill('SIGTERM');
    expect(await api.exited).toBe(0);
  }, 300_000);

  it('a worker serves probes and metrics on METRICS_PORT only, and its healthcheck passes there', async () => {
    const metricsPort = String(await freePort());
    const worker = start({ MODE: 'worker', METRICS_PORT: metricsPort });
    expect(await healthy({ MODE: 'worker', METRICS_PORT: metricsPort }, '/readyz'), worker.stderr()).toBe(true);
    const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(await metrics.text()).toContain('subtext_queue_jobs{queue="extract",state="created"} 0');
    // Without METRICS_PORT a worker cannot be probed, and the healthcheck says so rather than passing.
    await expect(
      run(process.execPath, ['build/src/healthcheck.js'], {
        cwd: root,
        env: { PATH: process.env.PATH, MODE: 'worker' },
      }),
    ).rejects.toMatchObject({
      stderr: expect.stringContaining('METRICS_PORT'),
    });
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
  }, 300_000);
});
