// Review (OAuth Client ID Metadata Documents): a document server that sends headers and then stalls, or drops the
// connection mid-body, made the authorization endpoint answer 500 (the body's read error was not the documented
// refusal); a document whose client_name or a redirect URI held a NUL character (PostgreSQL refuses it in text and jsonb)
// was answered as a JSON error blaming the request, not the authorization page. Every unusable document must be a 400 page, never a 500, and never redirected.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientDocuments } from '../../src/infra/oauth/client-documents.ts';
import { startCallbackServer } from '../support/oauth-client.ts';
import { loopbackCertificate } from '../support/loopback-tls.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

describe('hostile client metadata document servers', () => {
  let s: TestServer;
  let callback: Awaited<ReturnType<typeof startCallbackServer>>;
  let docs: Server;
  let base: string;
  const stalled: (() => void)[] = [];

  beforeAll(async () => {
    const tls = loopbackCertificate();
    docs = createServer(tls, (req, res) => {
      const url = `${base}${req.url}`;
      const start = JSON.stringify({ client_id: url, redirect_uris: [callback.url] }).slice(0, 20);
      if (req.url === '/stall.json') {
        // Headers and a first chunk, then nothing until the test ends.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(start);
        stalled.push(() => res.destroy());
      } else if (req.url === '/drop.json') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4000' });
        res.write(start, () => res.socket?.destroy());
      } else if (req.url === '/huge-header.json') {
        res.writeHead(200, { 'content-type': 'application/json', 'x-pad': 'x'.repeat(100_000) });
        res.end('{}');
      } else if (req.url === '/endless.json') {
        // Chunked, no length, never ending: it must be cut at the size limit, not read on.
        res.writeHead(200, { 'content-type': 'application/json' });
        const more = () => {
          if (!res.destroyed && res.write(' '.repeat(1024))) setImmediate(more);
          else if (!res.destroyed) res.once('drain', more);
        };
        res.write(start);
        more();
        stalled.push(() => res.destroy());
      } else if (req.url === '/nul-name.json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ client_id: url, client_name: 'Nul\u0000Name', redirect_uris: [callback.url] }));
      } else if (req.url === '/nul-uri.json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ client_id: url, redirect_uris: [callback.url, `${callback.url}?x=\u0000`] }));
      } else res.writeHead(404).end();
    });
    await new Promise<void>((r) => docs.listen(0, '127.0.0.1', () => r()));
    base = `https://127.0.0.1:${(docs.address() as AddressInfo).port}`;
    s = await startTestServer();
    callback = await startCallbackServer();
    s.deps.oauth.clientDocuments = createClientDocuments({
      policy: () => true,
      agent: new Agent({ connect: { ca: tls.cert } }),
      // The stall must end by the server's own deadline, not the test's.
      timeoutMs: 500,
    });
  });
  afterAll(async () => {
    for (const end of stalled) end();
    await callback?.close();
    await s?.close();
    await new Promise((r) => docs?.close(r));
  });

  const authorize = (clientId: string) =>
    fetch(
      `${s.url}/oauth/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: callback.url,
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      })}`,
      { redirect: 'manual' },
    );

  it('a body that stalls after the headers is refused on a page (400), not a 500', async () => {
    const res = await authorize(`${base}/stall.json`);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('could not be fetched');
  });

  it('a connection dropped mid-body is refused on a page (400), not a 500', async () => {
    const res = await authorize(`${base}/drop.json`);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('could not be fetched');
  });

  it('huge headers and an endless body are refused on a page (400)', async () => {
    for (const [path, why] of [
      ['/huge-header.json', 'could not be fetched'],
      ['/endless.json', 'larger than'],
    ]) {
      const res = await authorize(`${base}${path}`);
      expect(res.status, path).toBe(400);
      expect(await res.text(), path).toContain(why);
    }
  });

  it('a NUL character in a redirect URI is refused on the error page; in client_name it is dropped', async () => {
    const res = await authorize(`${base}/nul-uri.json`);
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    // The browser's page saying what is wrong with the document, not a JSON error about "the request".
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain('cannot be used');
    // Accepted: on to sign-in, as any usable client.
    const named = await authorize(`${base}/nul-name.json`);
    expect(named.status).toBe(302);
    expect(named.headers.get('location')).toMatch(/^\/sign-in\?/);
    expect((await s.deps.oauth.store.findClient(`${base}/nul-name.json`))?.name).toBe('NulName');
  });

  it('dynamic registration drops a NUL in client_name and refuses one in a redirect URI, in the OAuth shape', async () => {
    const register = (body: Record<string, unknown>) =>
      fetch(`${s.url}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ application_type: 'native', ...body }),
      }).then(async (r) => ({ status: r.status, json: await r.json() }));
    expect(await register({ client_name: 'A\u0000B', redirect_uris: [callback.url] })).toMatchObject({
      status: 201,
      json: { client_name: 'AB' },
    });
    expect(await register({ redirect_uris: [`${callback.url}?\u0000`] })).toMatchObject({
      status: 400,
      json: { error: 'invalid_redirect_uri' },
    });
  });
});
