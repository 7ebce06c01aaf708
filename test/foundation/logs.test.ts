// Keys never reach the logs: the real service (src/main.ts, LOG_LEVEL=debug) in a child process, its whole
// stdout and stderr read back after requests that carry the key in every place a client might put it.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../db/client.ts';
import { createTestDatabase } from '../support/databases.ts';
import { connectMcp, rawMcp } from '../support/security-checks.ts';
import { createApiKey, ensureAccount, revokeApiKey } from '../support/stores.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let child: ChildProcess;
let base: string;
const output: string[] = [];
let exited: Promise<number | null>;

beforeAll(async () => {
  database = await createTestDatabase();
  // One process, as `npm start` runs it (Node strips the types itself).
  child = spawn(process.execPath, ['src/main.ts'], {
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: database.url,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'debug',
      DAILY_FREE_CREDITS: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  child.stderr!.on('data', (c: Buffer) => output.push(c.toString()));
  const listening = new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      const entry = safeJson(line);
      if (entry?.port && /listening/.test(entry.msg)) resolve(entry.port);
    });
    void exited.then((code) => reject(new Error(`service exited (${code}) before listening:\n${output.join('\n')}`)));
  });
  base = `http://127.0.0.1:${await listening}`;
});

afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGTERM');
  await exited;
  await database?.drop();
});

function safeJson(line: string): any {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

describe('logs', () => {
  it('never contain a key, whatever the request did with it', async () => {
    const { sql } = connect(database.url, { max: 2 });
    const account = await ensureAccount(sql, 'logs@example.com');
    const live = await createApiKey(sql, { accountId: account.id, name: 'live', rateLimit: 8 });
    const revoked = await createApiKey(sql, { accountId: account.id, name: 'revoked' });
    await revokeApiKey(sql, account.id, revoked.id);
    await sql.end();
    const keys = [live.key, revoked.key];

    for (const key of keys) {
      const calls: [string, RequestInit][] = [
        ['/api/v1/credits', { headers: { authorization: `Bearer ${key}` } }],
        ['/api/v1/credits', { headers: { 'x-api-key': key } }],
        ['/api/v1/credits', { headers: { authorization: `Token ${key}` } }],
        [`/api/v1/credits?api_key=${key}&key=${key}`, { headers: { authorization: `Bearer ${key}` } }],
        [
          '/api/v1/subtitles',
          {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ videoId: key, url: key, key }),
          },
        ],
        [
          '/api/v1/subtitles',
          {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: `{"broken": "${key}"`,
          },
        ],
        [
          '/api/v1/subtitles',
          { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'text/plain' }, body: key },
        ],
        [`/api/v1/videos/${key}`, { headers: { authorization: `Bearer ${key}` } }],
        [`/api/v1/${key}`, {}],
        ['/api/v1/nope', { headers: { authorization: `Bearer ${key}`, cookie: `session=${key}` } }],
        [
          `/trpc/credits.get?input=${encodeURIComponent(JSON.stringify({ key }))}`,
          { headers: { authorization: `Bearer ${key}` } },
        ],
        [
          '/trpc/subtitles.get',
          {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ videoId: key }),
          },
        ],
      ];
      for (const [path, init] of calls) await (await fetch(`${base}${path}`, init)).arrayBuffer();
      await (await rawMcp(base, { authorization: `Bearer ${key}` })).arrayBuffer();
    }
    // A full MCP session with the live key, including a tool error that echoes arguments back.
    const client = await connectMcp(base, { authorization: `Bearer ${live.key}` });
    await client.listTools();
    // Calls past the key's limit of 8 are HTTP 429s, which the client throws: what matters is what got logged.
    const call = (name: string, args: Record<string, unknown>) =>
      client.callTool({ name, arguments: args }).catch(() => undefined);
    await call('get_credits', {});
    await call('get_video_subtitles', { videoId: live.key });
    for (let i = 0; i < 3; i++) await call('get_credits', {}); // past the limit of 8
    await client.close();

    // Stop the service so every buffered line is out, then read everything it wrote.
    child.kill('SIGTERM');
    expect(await exited).toBe(0); // a graceful stop
    const text = output.join('\n');
    expect(text).toContain('"msg":"request"'); // the requests were logged...
    expect(text).toMatch(/"level":20|"level":30/);
    for (const key of keys) {
      expect(text).not.toContain(key); // ...but never a key
      expect(text).not.toContain(key.slice(11)); // nor its secret part (the first 11 characters are a display prefix)
    }
  });
});
