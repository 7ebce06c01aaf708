// `subscriptions/listen` streams (2026-07-28) are bounded per key (MCP_LISTEN_STREAMS_PER_KEY) and per account
// (MCP_LISTEN_STREAMS_PER_ACCOUNT), refused with a clear error when the bound is reached, the place freed when a
// stream closes. Through the real v2 SDK client (issue 37, item 5).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../support/stores.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

let s: TestServer;
const clients: Client[] = [];
beforeAll(async () => {
  s = await startTestServer({ MCP_LISTEN_STREAMS_PER_KEY: '2', MCP_LISTEN_STREAMS_PER_ACCOUNT: '3' });
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await s?.close();
});

async function connected(key: string): Promise<Client> {
  const client = new Client(
    { name: 'listen-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', s.url), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  clients.push(client);
  return client;
}

const listen = (c: Client) => c.listen({ toolsListChanged: true });

describe('listen streams', { timeout: 60_000 }, () => {
  it('a key holds at most its bound, its account at most its own; a closed stream frees its place', async () => {
    const first = await s.newKey({ rateLimit: 100_000 });
    const second = await createApiKey(s.deps.sql, {
      accountId: first.accountId,
      name: 'second',
      rateLimit: 100_000,
      expiresAt: null,
    });
    const a = await connected(first.key);
    const b = await connected(second.key);

    const a1 = await listen(a);
    await listen(a);
    await expect(listen(a)).rejects.toThrow(/This key already has 2 open listen streams \(at most 2\)/);

    await listen(b);
    await expect(listen(b)).rejects.toThrow(/This account already has 3 open listen streams \(at most 3\)/);

    await a1.close();
    expect(await a1.closed).toBe('local');
    // The server sees the stream end when the client aborts it; the freed place is then the other key's to take.
    await expect
      .poll(
        async () =>
          listen(b).then(
            () => true,
            () => false,
          ),
        { timeout: 10_000 },
      )
      .toBe(true);
    await expect(listen(a)).rejects.toThrow(/This account already has 3/);
  });

  it('another account is not held back by the first', async () => {
    const other = await s.newKey({ rateLimit: 100_000 });
    const c = await connected(other.key);
    await listen(c);
    await listen(c);
  });
});
