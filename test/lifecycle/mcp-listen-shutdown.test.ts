// SIGTERM with a 2026-07-28 `subscriptions/listen` stream open: the stream gets its closing result (the listen
// request's own JSON-RPC result) and ends, and the service stops at once instead of waiting out its request
// deadline for a stream that never ends by itself. The service runs as `npm start` does, on a test database.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect } from '../../db/client.ts';
import { freePort } from '../../src/infra/database/free-port.ts';
import { createTestDatabase } from '../support/databases.ts';
import { spawnNpm, untilHealthy, type Started } from '../support/npm-start.ts';
import { createApiKey, ensureAccount } from '../support/stores.ts';

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let s: Started | undefined;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  if (s && s.npm.exitCode === null) s.npm.kill('SIGKILL');
  await db?.drop();
});

it('SIGTERM closes open listen streams with their result and stops without waiting for them', async () => {
  const port = await freePort();
  // A request may wait 10 minutes for its job: far beyond this test's own timeout, so only a closed stream stops it.
  s = spawnNpm(['start'], {
    DATABASE_URL: db.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    REQUEST_WAIT_MS: '600000',
  });
  await untilHealthy(s, port);
  const { sql } = connect(db.url, { max: 1 });
  const account = await ensureAccount(sql, 'listener@example.com');
  const { key } = await createApiKey(sql, { accountId: account.id, name: 'listen', rateLimit: null, expiresAt: null });
  await sql.end();

  const res = await fetch(`http://127.0.0.1:${port}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${key}`,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'subscriptions/listen',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 'listen-1',
      method: 'subscriptions/listen',
      params: {
        notifications: { toolsListChanged: true },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  // The acknowledgement first: the subscription is open.
  while (!text.includes('notifications/subscriptions/acknowledged')) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`stream ended before its acknowledgement: ${text}`);
    text += decoder.decode(value, { stream: true });
  }

  process.kill(-s.npm.pid!, 'SIGTERM');
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  const messages = text
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => JSON.parse(l.slice(6)));
  expect(messages.at(-1)).toMatchObject({ jsonrpc: '2.0', id: 'listen-1', result: { resultType: 'complete' } });
  const { code, signal } = await s.exited;
  expect({ code, signal }, s.lines.join('\n')).toEqual({ code: 0, signal: null });
  expect(s.logs().map((l) => l.msg)).toContain('stopped');
}, 60_000);
