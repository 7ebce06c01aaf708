// A log collector reads the service's stdout and stderr as JSON lines: every line the service writes, from start to
// stop, on both streams, must parse. Started as `npm start` starts it (bin/start.js, no npm banner in between), on a
// test database, with an MCP call and a REST call in between.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect } from '../../db/client.ts';
import { freePort } from '../../src/infra/database/free-port.ts';
import { mcpClient } from '../support/clients.ts';
import { createTestDatabase } from '../support/databases.ts';
import { untilHealthy, type Started } from '../support/npm-start.ts';
import { createApiKey, ensureAccount } from '../support/stores.ts';

const REPO = path.resolve(import.meta.dirname, '../..');

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let child: ReturnType<typeof spawn> | undefined;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await db?.drop();
});

/** bin/start.js in a user's environment, each stream's lines kept apart. */
function startService(env: Record<string, string>) {
  const inherited = Object.fromEntries(
    ['PATH', 'HOME', 'TMPDIR', 'LANG'].flatMap((k) => (process.env[k] ? [[k, process.env[k]!]] : [])),
  );
  const proc = spawn(process.execPath, ['bin/start.js'], {
    cwd: REPO,
    env: { ...inherited, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  createInterface({ input: proc.stdout! }).on('line', (l) => stdout.push(l));
  createInterface({ input: proc.stderr! }).on('line', (l) => stderr.push(l));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('close', (code, signal) => resolve({ code, signal })),
  );
  const lines = () => [...stdout, ...stderr];
  const started: Started = {
    npm: proc,
    get lines() {
      return lines();
    },
    exited,
    plainLines: () => lines().filter((l) => !l.startsWith('{')),
    logs: () => lines().flatMap((l) => (l.startsWith('{') ? [JSON.parse(l)] : [])),
  };
  return { proc, stdout, stderr, started };
}

const notJson = (lines: string[]) =>
  lines.filter((l) => {
    try {
      const v = JSON.parse(l);
      return v === null || typeof v !== 'object' || Array.isArray(v);
    } catch {
      return true;
    }
  });

it('writes only JSON lines on stdout and stderr, from start through an MCP and a REST call to stop', async () => {
  const port = await freePort();
  const s = startService({ DATABASE_URL: db.url, PORT: String(port), HOST: '127.0.0.1' });
  child = s.proc;
  await untilHealthy(s.started, port);
  const { sql } = connect(db.url, { max: 1 });
  const account = await ensureAccount(sql, 'json-lines@example.com');
  const { key } = await createApiKey(sql, { accountId: account.id, name: 'logs', rateLimit: null, expiresAt: null });
  await sql.end();

  const base = `http://127.0.0.1:${port}`;
  const mcp = await mcpClient(base, key);
  const tools = await mcp.listTools();
  expect(tools.tools.length).toBeGreaterThan(0);
  const credits = await mcp.callTool({ name: 'get_credits', arguments: {} });
  expect(credits.isError).toBeFalsy();
  await mcp.close();
  const rest = await fetch(`${base}/api/v1/credits`, { headers: { authorization: `Bearer ${key}` } });
  expect(rest.status).toBe(200);

  s.proc.kill('SIGTERM');
  const { code } = await s.started.exited;
  expect(code, s.started.lines.join('\n')).toBe(0);
  expect(s.stdout.length, 'the service logs on stdout').toBeGreaterThan(0);
  expect({ stdout: notJson(s.stdout), stderr: notJson(s.stderr) }).toEqual({ stdout: [], stderr: [] });
  const msgs = s.started.logs().map((l) => l.msg);
  expect(msgs).toContain('request');
  expect(msgs).toContain('stopped');
}, 120_000);
