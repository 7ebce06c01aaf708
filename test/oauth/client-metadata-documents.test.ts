// Client ID Metadata Documents end to end: the v2 MCP SDK's client names itself by an https URL on a loopback TLS
// server (a certificate made here with openssl), signs in through the consent page, and calls tools; and every way a
// document can be unusable is refused on a page, never redirected.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientDocuments } from '../../src/infra/oauth/client-documents.ts';
import { fakeVideoSource } from '../support/fake-video-source.ts';
import { MemoryOAuthProvider, startCallbackServer } from '../support/oauth-client.ts';
import { loopbackCertificate } from '../support/loopback-tls.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { newEmail, sessionClient } from '../web/session-client.ts';

describe('OAuth Client ID Metadata Documents', () => {
  let s: TestServer;
  let callback: Awaited<ReturnType<typeof startCallbackServer>>;
  let docs: Server;
  let base: string;
  let tls: ReturnType<typeof loopbackCertificate>;
  const fetched: string[] = [];
  /** path -> [status, headers, body] the document server answers. */
  const answers = new Map<string, [number, Record<string, string>, string]>();
  const publish = (path: string, doc: unknown, headers: Record<string, string> = {}) =>
    answers.set(path, [200, { 'content-type': 'application/json', ...headers }, JSON.stringify(doc)]);

  beforeAll(async () => {
    tls = loopbackCertificate();
    docs = createServer(tls, (req, res) => {
      fetched.push(req.url ?? '');
      const [status, headers, body] = answers.get((req.url ?? '').split('?')[0]!) ?? [404, {}, 'no'];
      res.writeHead(status, headers).end(body);
    });
    await new Promise<void>((r) => docs.listen(0, '127.0.0.1', () => r()));
    base = `https://127.0.0.1:${(docs.address() as AddressInfo).port}`;
    s = await startTestServer({ DAILY_FREE_CREDITS: '10' }, { youtube: fakeVideoSource() });
    callback = await startCallbackServer();
  });
  afterAll(async () => {
    await callback?.close();
    await s?.close();
    await new Promise((r) => docs?.close(r));
  });

  const authorizeUrl = (clientId: string, extra: Record<string, string> = {}) =>
    `${s.url}/oauth/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: callback.url,
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      ...extra,
    })}`;
  const page = async (url: string, cookie?: string) => {
    const res = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    return { status: res.status, location: res.headers.get('location'), html: await res.text() };
  };

  it('advertises documents in its server metadata', async () => {
    const meta = await (await fetch(`${s.url}/.well-known/oauth-authorization-server`)).json();
    expect(meta.client_id_metadata_document_supported).toBe(true);
    expect(meta.authorization_response_iss_parameter_supported).toBe(true);
  });

  it('as deployed, refuses a document on a loopback address without fetching it', async () => {
    const url = `${base}/never.json`;
    publish('/never.json', { client_id: url, redirect_uris: [callback.url] });
    const r = await page(authorizeUrl(url));
    expect(r.status).toBe(400);
    expect(r.html).toContain('not a public address');
    expect(fetched).not.toContain('/never.json');
  });

  describe('with the loopback server allowed', () => {
    const PASSWORD = 'a long enough password';
    beforeAll(() => {
      // What an operator's allowlist would do, plus trust in the test certificate.
      s.deps.oauth.clientDocuments = createClientDocuments({
        policy: () => true,
        agent: new Agent({ connect: { ca: tls.cert } }),
      });
    });
    const signedIn = async () => {
      const web = sessionClient(s.url);
      const email = newEmail();
      expect((await web.signUp(email, PASSWORD)).status).toBe(200);
      return { web, email };
    };

    it('the SDK client names itself by its document, signs in and calls tools; the document is fetched once', async () => {
      const url = `${base}/clients/claude-test.json`;
      publish(
        '/clients/claude-test.json',
        {
          client_id: url,
          client_name: 'Document Connector',
          redirect_uris: [callback.url],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
        },
        { 'cache-control': 'max-age=600' },
      );
      const { web, email } = await signedIn();
      const provider = new MemoryOAuthProvider(callback.url, 'ignored: the document names it', url);
      const mcpUrl = new URL('/mcp', s.url);
      // No registration: the server's metadata says documents are supported, so the client id is the URL.
      await expect(
        new Client({ name: 'cimd', version: '1.0.0' }).connect(
          new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }),
        ),
      ).rejects.toBeInstanceOf(UnauthorizedError);
      expect(provider.client?.client_id).toBe(url);
      const authorization = provider.authorizationUrl!;
      expect(authorization.searchParams.get('client_id')).toBe(url);

      const consent = await page(authorization.toString(), web.cookie);
      expect(consent.status).toBe(200);
      expect(consent.html).toContain('Document Connector');
      expect(consent.html).toMatch(/id="client-host">127\.0\.0\.1:\d+</);
      expect(consent.html).toContain(email);
      const form = new URLSearchParams({
        ...Object.fromEntries(authorization.searchParams),
        csrf: web.csrf,
        decision: 'allow',
      });
      const arrival = callback.received();
      const allowed = await fetch(`${s.url}/oauth/authorize`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: web.cookie },
        body: form.toString(),
        redirect: 'manual',
      });
      expect(allowed.status).toBe(302);
      await fetch(allowed.headers.get('location')!);
      const query = await arrival;
      expect(query.get('iss')).toBe(s.url);
      await new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }).finishAuth(
        query.get('code')!,
        query.get('iss')!,
      );

      const client = new Client({ name: 'cimd', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
      expect((await client.callTool({ name: 'get_credits', arguments: {} })).structuredContent).toMatchObject({
        balance: 10,
      });
      await client.close();
      // The consent page and the form post each resolved the client: one fetch, then the cache.
      expect(fetched.filter((f) => f === '/clients/claude-test.json')).toHaveLength(1);
      // Listed beside API keys under the document's name.
      const listed = await web.query('connections.list');
      expect(listed.json.result.data).toEqual([
        expect.objectContaining({ clientName: 'Document Connector', status: 'active' }),
      ]);
    });

    it('refuses, on a page and without redirecting, every unusable document or client id', async () => {
      const cases: [string, string, (url: string) => void][] = [
        [
          '/other-id.json',
          'names another client_id',
          (u) => publish('/other-id.json', { client_id: `${u}x`, redirect_uris: [callback.url] }),
        ],
        [
          '/secret.json',
          'must not carry a secret',
          (u) => publish('/secret.json', { client_id: u, client_secret: 's', redirect_uris: [callback.url] }),
        ],
        ['/no-uris.json', 'redirect_uris must be a list', (u) => publish('/no-uris.json', { client_id: u })],
        [
          '/bad-uri.json',
          'redirect_uris are not allowed',
          (u) => publish('/bad-uri.json', { client_id: u, redirect_uris: ['http://evil.example/cb'] }),
        ],
        [
          '/big.json',
          'larger than 5120 bytes',
          (u) => publish('/big.json', { client_id: u, redirect_uris: [callback.url], pad: 'x'.repeat(6000) }),
        ],
        [
          '/moved.json',
          'redirects are not followed',
          () => answers.set('/moved.json', [302, { location: `${base}/clients/claude-test.json` }, '']),
        ],
        ['/not-json.json', 'not JSON', () => answers.set('/not-json.json', [200, {}, '<html>'])],
        ['/missing.json', 'HTTP 404', () => {}],
        [
          '/other-redirect.json',
          'redirect_uri is not one this application registered',
          (u) => publish('/other-redirect.json', { client_id: u, redirect_uris: ['https://elsewhere.example/cb'] }),
        ],
      ];
      for (const [path, why, setUp] of cases) {
        const url = `${base}${path}`;
        setUp(url);
        const r = await page(authorizeUrl(url));
        expect(r.status, path).toBe(400);
        expect(r.location, path).toBeNull();
        expect(r.html, path).toContain(why);
      }
      const ids: [string, string][] = [
        ['https://127.0.0.1/', 'must have a path'],
        [`${base}/a.json#frag`, 'fragment'],
        [`https://user:pw@127.0.0.1/a.json`, 'credentials'],
        [`${base}/a/../b.json`, '. or .. segments'],
        [`HTTPS://127.0.0.1/A.json`, 'unknown'],
      ];
      for (const [id, why] of ids) {
        const r = await page(authorizeUrl(id));
        expect(r.status, id).toBe(400);
        expect(r.html.toLowerCase(), id).toContain(why === 'unknown' ? 'unknown client_id' : why);
      }
    });

    it('bounds the documents one address can make it fetch', async () => {
      publish('/many.json', {});
      let limited: Awaited<ReturnType<typeof page>> | undefined;
      for (let i = 0; i < 40 && !limited; i++) {
        const r = await page(authorizeUrl(`${base}/many.json?n=${i}`));
        if (r.status === 429) limited = r;
      }
      expect(limited?.html).toMatch(/Too many/i);
    });
  });

  describe('dynamic registration, kept as the fallback', () => {
    const register = (body: Record<string, unknown>) =>
      fetch(`${s.url}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, json: await r.json() }));

    it('infers an absent application_type, and sends web applications to https only', async () => {
      // 2025 SDKs omit it: a loopback redirect URI makes the client native (test/oauth/registration-rules.test.ts).
      const missing = await register({ redirect_uris: [callback.url] });
      expect(missing).toMatchObject({ status: 201, json: { application_type: 'native' } });
      const web = await register({ redirect_uris: [callback.url], application_type: 'web' });
      expect(web).toMatchObject({ status: 400, json: { error: 'invalid_redirect_uri' } });
      const native = await register({ redirect_uris: [callback.url], application_type: 'native' });
      expect(native).toMatchObject({ status: 201, json: { application_type: 'native' } });
      const https = await register({ redirect_uris: ['https://app.example/cb'], application_type: 'web' });
      expect(https).toMatchObject({ status: 201, json: { application_type: 'web' } });
    });
  });
});
