// Review (OAuth Client ID Metadata Documents, as deployed): client ids naming this machine or a private network by
// every spelling an attacker might try are refused on a page without a request reaching the listener; and the
// per-address fetch budget is not reset by a forged X-Forwarded-For when no proxy is trusted.
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCallbackServer } from '../support/oauth-client.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

describe('client metadata document addresses', () => {
  let s: TestServer;
  let callback: Awaited<ReturnType<typeof startCallbackServer>>;
  let listener: Server;
  let port: number;
  let connections = 0;

  beforeAll(async () => {
    // Any TCP connection at all counts: the refusal must come before one is opened.
    listener = createServer((sock) => {
      connections++;
      sock.destroy();
    });
    await new Promise<void>((r) => listener.listen(0, '::', () => r()));
    port = (listener.address() as { port: number }).port;
    s = await startTestServer();
    callback = await startCallbackServer();
  });
  afterAll(async () => {
    await callback?.close();
    await s?.close();
    await new Promise((r) => listener?.close(r));
  });

  const authorize = (clientId: string, headers: Record<string, string> = {}) =>
    fetch(
      `${s.url}/oauth/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: callback.url,
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      })}`,
      { redirect: 'manual', headers },
    );

  it('refuses loopback, private and mapped spellings of an address, and names that resolve to one', async () => {
    const hosts = [
      'localhost',
      'localhost.',
      '127.0.0.1',
      '127.1',
      '2130706433',
      '0x7f000001',
      '0.0.0.0',
      '0',
      '[::1]',
      '[::]',
      '[::ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
      '[::127.0.0.1]',
      '[64:ff9b::127.0.0.1]',
      '[2002:7f00:1::]',
      '[fe80::1]',
      '[fc00::1]',
      '10.0.0.1',
      '169.254.169.254',
      '192.168.1.1',
      '100.64.0.1',
    ];
    for (const host of hosts) {
      const res = await authorize(`https://${host}:${port}/doc.json`);
      expect(res.status, host).toBe(400);
      expect(res.headers.get('location'), host).toBeNull();
    }
    expect(connections).toBe(0);
  });

  it('counts fetches per connecting address, whatever X-Forwarded-For says (no trusted proxy)', async () => {
    let limited = 0;
    for (let i = 0; i < 40; i++) {
      const res = await authorize(`https://localhost:${port}/budget.json?n=${i}`, {
        'x-forwarded-for': `203.0.113.${i}`,
      });
      if (res.status === 429) limited++;
    }
    expect(limited).toBeGreaterThan(0);
    expect(connections).toBe(0);
  });
});
