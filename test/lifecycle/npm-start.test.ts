// The two commands a newcomer runs, run for real: `npm start` with its embedded PostgreSQL, stopped every way a
// supervisor or a user stops it, killed, and started on a taken port. One data directory for the whole file (an
// embedded cluster is initialised once), so the tests run in order.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/infra/database/free-port.ts';
import {
  isAlive,
  postmasterPid,
  servicePid,
  spawnNpm,
  untilGone,
  untilHealthy,
  type Started,
} from '../support/npm-start.ts';

let dataDir: string;
let port: number;
const running = new Set<Started>();

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'subtext-lifecycle-'));
  chmodSync(dataDir, 0o755); // as root the database runs as the user postgres, which must be able to enter it
  port = await freePort();
});

afterAll(async () => {
  // Nothing outlives the file, whatever failed.
  for (const s of running) if (s.npm.exitCode === null) s.npm.kill('SIGKILL');
  const pid = postmasterPid(dataDir);
  if (pid && isAlive(pid)) process.kill(pid, 'SIGINT');
  if (pid) await untilGone(pid);
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(env: Record<string, string> = {}): Promise<Started> {
  const s = spawnNpm(['start'], { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', ...env });
  running.add(s);
  await untilHealthy(s, port);
  return s;
}

/** The service stopped on its own terms: exit 0, "stopped" logged, the embedded database stopped, the port closed. */
async function expectStoppedGracefully(s: Started, postmaster: number) {
  const { code, signal } = await s.exited;
  expect({ code, signal }, s.lines.join('\n')).toEqual({ code: 0, signal: null });
  expect(s.logs().map((l) => l.msg)).toContain('stopped');
  expect(await untilGone(postmaster), 'the embedded PostgreSQL is stopped').toBe(true);
  const refused = await fetch(`http://127.0.0.1:${port}/healthz`).then(
    () => false,
    () => true,
  );
  expect(refused).toBe(true);
}

describe('npm start stops gracefully, with its embedded database', () => {
  it('on SIGTERM to the npm process (what docker stop and systemd send)', async () => {
    const s = await start();
    const postmaster = postmasterPid(dataDir)!;
    expect(isAlive(postmaster)).toBe(true);
    s.npm.kill('SIGTERM');
    await expectStoppedGracefully(s, postmaster);
  }, 180_000);

  it('on SIGTERM to the whole process group', async () => {
    const s = await start();
    const postmaster = postmasterPid(dataDir)!;
    process.kill(-s.npm.pid!, 'SIGTERM');
    await expectStoppedGracefully(s, postmaster);
    // The group holds npm and the service, which got the signal twice (once from npm): one shutdown.
    expect(s.logs().filter((l) => /shutting down/.test(l.msg))).toHaveLength(1);
  }, 180_000);

  it('on SIGTERM to the node process itself', async () => {
    const s = await start();
    const postmaster = postmasterPid(dataDir)!;
    const node = servicePid(s);
    expect(node).not.toBe(s.npm.pid);
    process.kill(node, 'SIGTERM');
    await expectStoppedGracefully(s, postmaster);
  }, 180_000);

  it('on Ctrl-C (SIGINT to the group)', async () => {
    const s = await start();
    const postmaster = postmasterPid(dataDir)!;
    process.kill(-s.npm.pid!, 'SIGINT');
    await expectStoppedGracefully(s, postmaster);
  }, 180_000);
});

describe('npm start after an unclean exit', () => {
  it('after kill -9, the CLI and the next start reuse the PostgreSQL left running, and stop it cleanly', async () => {
    const first = await start();
    const postmaster = postmasterPid(dataDir)!;
    process.kill(servicePid(first), 'SIGKILL');
    await first.exited;
    expect(isAlive(postmaster), 'kill -9 leaves the database running').toBe(true);

    // The CLI finds it through its pid file, uses it, and stops it when done.
    const cli = spawnNpm(['run', '-s', 'cli', '--', 'accounts', 'list', '--json'], { DATA_DIR: dataDir });
    const cliExit = await cli.exited;
    expect(cliExit.code, cli.lines.join('\n')).toBe(0);
    expect(await untilGone(postmaster)).toBe(true);

    // Killed again; this time the next start itself meets the orphan.
    const second = await start();
    const postmaster2 = postmasterPid(dataDir)!;
    process.kill(servicePid(second), 'SIGKILL');
    await second.exited;
    const third = await start();
    expect(third.logs().find((l) => l.how)?.how).toBe('adopted');
    expect(postmasterPid(dataDir)).toBe(postmaster2);
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    third.npm.kill('SIGTERM');
    await expectStoppedGracefully(third, postmaster2);
  }, 300_000);

  it('a pid file naming a process that is gone (a crash, a reboot) does not stop the start', async () => {
    writeFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), `999999\n${dataDir}\n0\n5432\n`);
    const s = await start();
    const postmaster = postmasterPid(dataDir)!;
    expect(postmaster).not.toBe(999999);
    s.npm.kill('SIGTERM');
    await expectStoppedGracefully(s, postmaster);
  }, 180_000);
});

describe('npm start fails clearly', () => {
  let blocker: Server;
  afterAll(() => new Promise<void>((r) => (blocker ? blocker.close(() => r()) : r())));

  it('with the port taken: one sentence, exit 1, no database left running', async () => {
    blocker = createServer();
    await new Promise<void>((r) => blocker.listen(port, '127.0.0.1', r));
    const s = spawnNpm(['start'], { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' });
    running.add(s);
    const { code } = await s.exited;
    expect(code).toBe(1);
    expect(s.plainLines()).toEqual([
      `Port ${port} is already in use (another Subtext, or another program): stop it, or start on another port, e.g. PORT=${port + 1} npm start.`,
    ]);
    expect(s.lines.join('\n')).not.toMatch(/\n\s+at /); // no stack trace
    // Checked before the database starts: nothing was started, so nothing is left behind.
    expect(s.logs().map((l) => l.msg)).not.toContain('DATABASE_URL is not set: starting an embedded PostgreSQL');
    const pid = postmasterPid(dataDir);
    expect(pid === null || !isAlive(pid)).toBe(true);
  }, 120_000);

  it('with DATABASE_URL unreachable: one sentence naming the address and what to do', async () => {
    const closed = await freePort();
    const s = spawnNpm(['start'], { DATABASE_URL: `postgres://u:secret@127.0.0.1:${closed}/db`, PORT: '0' });
    running.add(s);
    expect((await s.exited).code).toBe(1);
    expect(s.plainLines()).toEqual([
      `Could not connect to PostgreSQL at 127.0.0.1:${closed}/db (connection refused): start it, fix DATABASE_URL, or unset DATABASE_URL to use the embedded one.`,
    ]);
    expect(s.lines.join('\n')).not.toContain('secret');
  }, 120_000);
});
