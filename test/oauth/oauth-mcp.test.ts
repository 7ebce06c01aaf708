import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import pkceChallenge from 'pkce-challenge';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccessTokens } from '../../src/infra/oauth/access-tokens.ts';
import { fakeVideoSource } from '../support/fake-video-source.ts';
import { MemoryOAuthProvider, startCallbackServer } from '../support/oauth-client.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { launchBrowser, screenshotPath } from '../web/browser.ts';
import { newEmail, sessionClient } from '../web/session-client.ts';

const PASSWORD = 'a long enough password';

describe('OAuth for /mcp', () => {
  let s: TestServer;
  let callback: Awaited<ReturnType<typeof startCallbackServer>>;

  beforeAll(async () => {
    s = await startTestServer({ DAILY_FREE_CREDITS: '10' }, { youtube: fakeVideoSource() });
    callback = await startCallbackServer();
  });
  afterAll(async () => {
    await callback?.close();
    await s?.close();
  });

  const form = (body: Record<string, string>) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body).toString(),
  });
  const register = async (redirectUris = [callback.url], name = 'HTTP test client') => {
    const res = await fetch(`${s.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: name,
        redirect_uris: redirectUris,
        token_endpoint_auth_method: 'none',
        application_type: 'native',
      }),
    });
    return { status: res.status, json: await res.json() };
  };
  /** A signed-in website session (cookie + CSRF token), as the consent page sees it; one account for these tests. */
  let shared: ReturnType<typeof sessionClient> | undefined;
  const signedIn = async () => {
    if (shared) return shared;
    const web = sessionClient(s.url);
    expect((await web.signUp(newEmail(), PASSWORD)).status).toBe(200);
    return (shared = web);
  };
  /** Authorization request, then the consent form's Allow, over plain HTTP; answers the redirect's query. */
  const authorize = async (
    web: Awaited<ReturnType<typeof signedIn>>,
    params: Record<string, string>,
    decision = 'allow',
  ) => {
    const page = await fetch(`${s.url}/oauth/authorize?${new URLSearchParams(params)}`, {
      headers: { cookie: web.cookie },
      redirect: 'manual',
    });
    if (page.status !== 200)
      return { status: page.status, location: page.headers.get('location'), html: await page.text() };
    const res = await fetch(`${s.url}/oauth/authorize`, {
      ...form({ ...params, csrf: web.csrf, decision }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: web.cookie },
      redirect: 'manual',
    });
    return { status: res.status, location: res.headers.get('location'), html: '' };
  };
  const codeFlow = async (opts: { clientId: string; web: Awaited<ReturnType<typeof signedIn>>; resource?: string }) => {
    const pkce = await pkceChallenge();
    const params = {
      response_type: 'code',
      client_id: opts.clientId,
      redirect_uri: callback.url,
      code_challenge: pkce.code_challenge,
      code_challenge_method: 'S256',
      state: 'st4te',
      scope: 'mcp',
      resource: opts.resource ?? `${s.url}/mcp`,
    };
    const r = await authorize(opts.web, params);
    const back = new URL(r.location!);
    return { code: back.searchParams.get('code'), back, verifier: pkce.code_verifier };
  };
  const token = async (body: Record<string, string>) => {
    const res = await fetch(`${s.url}/oauth/token`, form(body));
    return { status: res.status, json: await res.json(), cacheControl: res.headers.get('cache-control') };
  };
  const mcpWith = (accessToken: string) =>
    fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${accessToken}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_credits', arguments: {} },
      }),
    });
  const issued = async () => {
    const web = await signedIn();
    const { json: client } = await register();
    const { code, verifier } = await codeFlow({ clientId: client.client_id, web });
    const t = await token({
      grant_type: 'authorization_code',
      code: code!,
      code_verifier: verifier,
      client_id: client.client_id,
      redirect_uri: callback.url,
      resource: `${s.url}/mcp`,
    });
    expect(t.status).toBe(200);
    return { web, client, tokens: t.json as { access_token: string; refresh_token: string; expires_in: number } };
  };

  describe('discovery', () => {
    it('/mcp answers 401 with a challenge naming the protected-resource metadata', async () => {
      const bare = await fetch(`${s.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(bare.status).toBe(401);
      expect(bare.headers.get('www-authenticate')).toBe(
        `Bearer realm="subtext", resource_metadata="${s.url}/.well-known/oauth-protected-resource/mcp", scope="mcp"`,
      );
      expect((await bare.json()).error.data.code).toBe('INVALID_API_KEY');
      const bad = await mcpWith('not.a.token');
      expect(bad.status).toBe(401);
      expect(bad.headers.get('www-authenticate')).toContain('error="invalid_token"');
      expect(bad.headers.get('www-authenticate')).toContain(
        `resource_metadata="${s.url}/.well-known/oauth-protected-resource/mcp"`,
      );
    });

    it('serves RFC 9728 and RFC 8414 metadata', async () => {
      for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
        expect(await (await fetch(`${s.url}${path}`)).json()).toMatchObject({
          resource: `${s.url}/mcp`,
          authorization_servers: [s.url],
          scopes_supported: ['mcp'],
        });
      }
      const as = await (await fetch(`${s.url}/.well-known/oauth-authorization-server`)).json();
      expect(as).toMatchObject({
        issuer: s.url,
        authorization_endpoint: `${s.url}/oauth/authorize`,
        token_endpoint: `${s.url}/oauth/token`,
        registration_endpoint: `${s.url}/oauth/register`,
        revocation_endpoint: `${s.url}/oauth/revoke`,
        code_challenge_methods_supported: ['S256'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_methods_supported: ['none'],
      });
    });
  });

  describe('the whole flow from the MCP SDK client, consent in Chromium', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await browser?.close();
    });

    it('registers, signs in, shows the consent page, and the SDK client then calls tools as the account', async () => {
      const email = newEmail();
      const web = sessionClient(s.url);
      expect((await web.signUp(email, PASSWORD)).status).toBe(200);

      const provider = new MemoryOAuthProvider(callback.url, 'Claude Test Connector');
      const mcpUrl = new URL('/mcp', s.url);
      const first = new Client({ name: 'oauth-test', version: '1.0.0' });
      // No token yet: the SDK reads the challenge, discovers both metadata documents, registers (RFC 7591), and asks
      // for the authorization URL to be opened.
      await expect(
        first.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider })),
      ).rejects.toBeInstanceOf(UnauthorizedError);
      const url = provider.authorizationUrl!;
      expect(url.origin + url.pathname).toBe(`${s.url}/oauth/authorize`);
      expect(url.searchParams.get('code_challenge_method')).toBe('S256');
      expect(url.searchParams.get('resource')).toBe(`${s.url}/mcp`);
      expect(provider.client?.client_id).toMatch(/^oac_/);

      const page = await browser.newPage();
      try {
        await page.goto(url.toString());
        // Not signed in: the website's sign-in page, which comes back to the authorization afterwards.
        await page.waitForURL(/\/sign-in\?next=/);
        await page.getByLabel('Email').fill(email);
        await page.getByLabel('Password').fill(PASSWORD);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.waitForURL(/\/oauth\/authorize\?/);
        await expect.poll(() => page.locator('#client-name').textContent()).toBe('Claude Test Connector');
        expect(await page.locator('#scopes').textContent()).toMatch(/Use the Subtext tools/);
        expect(await page.textContent('main')).toContain(email);
        await page.screenshot({ path: screenshotPath('oauth-consent') });
        const arrival = callback.received();
        await page.getByRole('button', { name: 'Allow' }).click();
        const query = await arrival;
        expect(query.get('iss')).toBe(s.url);
        expect(query.get('state')).toBe(url.searchParams.get('state'));
        const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
        await transport.finishAuth(query.get('code')!);
      } finally {
        await page.close();
      }
      expect(provider.saved).toMatchObject({ token_type: expect.stringMatching(/^bearer$/i), expires_in: 900 });

      const client = new Client({ name: 'oauth-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toContain('get_video_subtitles');
      // The account's own credits: the daily allowance, then 2 spent on a transcript.
      const credits = await client.callTool({ name: 'get_credits', arguments: {} });
      expect(credits.structuredContent).toMatchObject({ balance: 10 });
      const subs = await client.callTool({ name: 'get_video_subtitles', arguments: { videoId: 'bbbbbbbbbbb' } });
      expect(subs.isError).toBeFalsy();
      expect((await client.callTool({ name: 'get_credits', arguments: {} })).structuredContent).toMatchObject({
        balance: 8,
      });
      await client.close();

      // Listed on the keys page beside API keys.
      const signedInAgain = sessionClient(s.url);
      await signedInAgain.signIn(email, PASSWORD);
      const listed = await signedInAgain.query('connections.list');
      expect(listed.json.result.data).toEqual([
        expect.objectContaining({ clientName: 'Claude Test Connector', status: 'active', scope: 'mcp' }),
      ]);

      // Bound to /mcp: the same token, of scope "mcp" only, is refused by REST (test/oauth/oauth-api-scope.test.ts).
      const rest = await fetch(`${s.url}/api/v1/credits`, {
        headers: { authorization: `Bearer ${provider.saved!.access_token}` },
      });
      expect(rest.status).toBe(403);
    }, 120_000);
  });

  describe('refusals', () => {
    it('a wrong PKCE verifier is refused, and leaves the code to the client that holds the verifier', async () => {
      const web = await signedIn();
      const { json: client } = await register();
      const { code, verifier } = await codeFlow({ clientId: client.client_id, web });
      const wrong = (await pkceChallenge()).code_verifier;
      const base = {
        grant_type: 'authorization_code',
        code: code!,
        client_id: client.client_id,
        redirect_uri: callback.url,
      };
      const refused = await token({ ...base, code_verifier: wrong });
      expect(refused.status).toBe(400);
      expect(refused.json).toEqual({
        error: 'invalid_grant',
        error_description: 'The code_verifier does not match the code_challenge',
      });
      // Whoever got the code without its verifier cannot spend it for the client (test/oauth/token-endpoint-rules.test.ts).
      expect((await token({ ...base, code_verifier: verifier })).status).toBe(200);
      // No verifier at all is not accepted either.
      const { code: code2 } = await codeFlow({ clientId: client.client_id, web });
      expect((await token({ ...base, code: code2! })).json).toMatchObject({ error: 'invalid_request' });
    });

    it('a foreign redirect URI is refused without redirecting, at registration, authorization and token exchange', async () => {
      expect((await register(['http://evil.example/callback'])).json.error).toBe('invalid_redirect_uri');
      // The SDK's metadata schema already refuses script URLs.
      expect((await register(['javascript:alert(1)'])).json.error).toBe('invalid_client_metadata');
      expect((await register(['https://ok.example/cb#fragment'])).json.error).toBe('invalid_redirect_uri');
      const web = await signedIn();
      const { json: client } = await register();
      const pkce = await pkceChallenge();
      const r = await authorize(web, {
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: 'https://evil.example/callback',
        code_challenge: pkce.code_challenge,
        code_challenge_method: 'S256',
      });
      expect(r.status).toBe(400);
      expect(r.location).toBeNull();
      expect(r.html).toContain('not one this application registered');
      // The code is bound to the redirect URI it was issued for.
      const { code, verifier } = await codeFlow({ clientId: client.client_id, web });
      const t = await token({
        grant_type: 'authorization_code',
        code: code!,
        code_verifier: verifier,
        client_id: client.client_id,
        redirect_uri: 'https://evil.example/callback',
      });
      expect(t.json).toMatchObject({ error: 'invalid_grant' });
      // An unknown client is not redirected anywhere either.
      const unknown = await authorize(web, {
        response_type: 'code',
        client_id: 'oac_nope',
        redirect_uri: callback.url,
        code_challenge: pkce.code_challenge,
        code_challenge_method: 'S256',
      });
      expect([unknown.status, unknown.location]).toEqual([400, null]);
    });

    it('PKCE is required, S256 only', async () => {
      // A client this user approved gets the error by redirect; anyone else's is the error page
      // (test/oauth/authorize-trust.test.ts).
      const { web, client } = await issued();
      for (const extra of [{}, { code_challenge: 'x'.repeat(43), code_challenge_method: 'plain' }] as Record<
        string,
        string
      >[]) {
        const r = await authorize(web, {
          response_type: 'code',
          client_id: client.client_id,
          redirect_uri: callback.url,
          ...extra,
        });
        expect(r.status).toBe(302);
        expect(new URL(r.location!).searchParams.get('error')).toBe('invalid_request');
      }
    });

    it('a token for another resource is refused: at authorization, at the token endpoint, and by /mcp', async () => {
      const { web, client } = await issued();
      const { back } = await codeFlow({ clientId: client.client_id, web, resource: 'https://elsewhere.example/mcp' });
      expect(back.searchParams.get('error')).toBe('invalid_target');
      expect(back.searchParams.get('code')).toBeNull();

      const { code, verifier } = await codeFlow({ clientId: client.client_id, web });
      const t = await token({
        grant_type: 'authorization_code',
        code: code!,
        code_verifier: verifier,
        client_id: client.client_id,
        redirect_uri: callback.url,
        resource: 'https://elsewhere.example/mcp',
      });
      expect(t.json.error).toBe('invalid_target');

      // A token signed with this server's own key but for another audience is not accepted by /mcp.
      const [row] = await s.deps.sql<{ value: string }[]>`select value from settings where key = 'oauth_token_secret'`;
      const { tokens } = await issued();
      const claims = await s.deps.oauth.tokens.verify(tokens.access_token, `${s.url}/mcp`);
      expect(claims).not.toBeNull();
      const forOther = await createAccessTokens({ secret: row!.value, issuer: s.url, ttlSeconds: 900 }).issue({
        ...claims!,
        audience: ['https://elsewhere.example/mcp'],
      });
      expect((await mcpWith(forOther)).status).toBe(401);
      expect((await mcpWith(tokens.access_token)).status).toBe(200);
    });

    it('a revoked token is refused: revoked by the client (RFC 7009) or on the keys page', async () => {
      const a = await issued();
      expect((await mcpWith(a.tokens.access_token)).status).toBe(200);
      expect(
        (await fetch(`${s.url}/oauth/revoke`, form({ token: a.tokens.refresh_token, client_id: a.client.client_id })))
          .status,
      ).toBe(200);
      expect((await mcpWith(a.tokens.access_token)).status).toBe(401);
      expect(
        (
          await token({
            grant_type: 'refresh_token',
            refresh_token: a.tokens.refresh_token,
            client_id: a.client.client_id,
          })
        ).json.error,
      ).toBe('invalid_grant');

      const b = await issued();
      expect((await mcpWith(b.tokens.access_token)).status).toBe(200);
      const [connection] = (await b.web.query('connections.list')).json.result.data;
      expect((await b.web.mutate('connections.revoke', { id: connection.id })).status).toBe(200);
      const after = await mcpWith(b.tokens.access_token);
      expect(after.status).toBe(401);
      expect(after.headers.get('www-authenticate')).toContain('error="invalid_token"');
      expect((await b.web.query('connections.list')).json.result.data[0].status).toBe('revoked');

      // Revoking with the access token works too.
      const c = await issued();
      await fetch(`${s.url}/oauth/revoke`, form({ token: c.tokens.access_token, token_type_hint: 'access_token' }));
      expect((await mcpWith(c.tokens.access_token)).status).toBe(401);
    }, 90_000);

    it('refresh tokens rotate; a used one presented again revokes the grant', async () => {
      const a = await issued();
      const r1 = await token({
        grant_type: 'refresh_token',
        refresh_token: a.tokens.refresh_token,
        client_id: a.client.client_id,
      });
      expect(r1.status).toBe(200);
      expect(r1.cacheControl).toBe('no-store');
      expect(r1.json.refresh_token).not.toBe(a.tokens.refresh_token);
      expect((await mcpWith(r1.json.access_token)).status).toBe(200);
      const replay = await token({
        grant_type: 'refresh_token',
        refresh_token: a.tokens.refresh_token,
        client_id: a.client.client_id,
      });
      expect(replay.json.error).toBe('invalid_grant');
      expect((await mcpWith(r1.json.access_token)).status).toBe(401);
      expect(
        (
          await token({
            grant_type: 'refresh_token',
            refresh_token: r1.json.refresh_token,
            client_id: a.client.client_id,
          })
        ).json.error,
      ).toBe('invalid_grant');
    });

    it('a refresh token from any earlier rotation, replayed, revokes the whole family', async () => {
      const a = await issued();
      const refresh = async (rt: string) =>
        token({ grant_type: 'refresh_token', refresh_token: rt, client_id: a.client.client_id });
      const family = [a.tokens];
      for (let i = 0; i < 3; i++) {
        const r = await refresh(family.at(-1)!.refresh_token);
        expect(r.status).toBe(200);
        family.push(r.json);
      }
      // Access tokens from earlier rotations stay valid until they expire: rotation alone revokes nothing.
      expect((await mcpWith(family[0]!.access_token)).status).toBe(200);
      // Two rotations back: refused, and every token of the family dies with it.
      const replay = await refresh(family[1]!.refresh_token);
      expect(replay.json.error).toBe('invalid_grant');
      for (const t of family) expect((await mcpWith(t.access_token)).status).toBe(401);
      expect((await refresh(family.at(-1)!.refresh_token)).json.error).toBe('invalid_grant');
      const [listed] = (await a.web.query('connections.list')).json.result.data;
      expect(listed.status).toBe('revoked');
    });

    it('a code works once; presented again, the grant it gave is revoked', async () => {
      const web = await signedIn();
      const { json: client } = await register();
      const { code, verifier } = await codeFlow({ clientId: client.client_id, web });
      const body = {
        grant_type: 'authorization_code',
        code: code!,
        code_verifier: verifier,
        client_id: client.client_id,
        redirect_uri: callback.url,
      };
      const first = await token(body);
      expect(first.status).toBe(200);
      expect((await token(body)).json.error).toBe('invalid_grant');
      expect((await mcpWith(first.json.access_token)).status).toBe(401);
    });

    it('the consent form needs the session and its CSRF token; Deny goes back with access_denied', async () => {
      const web = await signedIn();
      const { json: client } = await register();
      const pkce = await pkceChallenge();
      const params = {
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: callback.url,
        code_challenge: pkce.code_challenge,
        code_challenge_method: 'S256',
        state: 'x',
      };
      const forged = await fetch(`${s.url}/oauth/authorize`, {
        ...form({ ...params, csrf: 'wrong', decision: 'allow' }),
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: web.cookie },
        redirect: 'manual',
      });
      expect(forged.status).toBe(403);
      const anonymous = await fetch(`${s.url}/oauth/authorize?${new URLSearchParams(params)}`, { redirect: 'manual' });
      expect(anonymous.status).toBe(302);
      expect(anonymous.headers.get('location')).toMatch(/^\/sign-in\?next=%2Foauth%2Fauthorize%3F/);
      const page = await fetch(`${s.url}/oauth/authorize?${new URLSearchParams(params)}`, {
        headers: { cookie: web.cookie },
      });
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      expect(await page.text()).toContain('HTTP test client');
      const denied = await authorize(web, params, 'deny');
      const back = new URL(denied.location!);
      expect([back.searchParams.get('error'), back.searchParams.get('state'), back.searchParams.get('code')]).toEqual([
        'access_denied',
        'x',
        null,
      ]);
    });

    it('registration refuses malformed metadata in the OAuth error shape', async () => {
      const res = await fetch(`${s.url}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"redirect_uris": "nope"}',
      });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toBe('invalid_client_metadata');
      expect((await token({ grant_type: 'password', username: 'a', password: 'b' })).json.error).toBe(
        'unsupported_grant_type',
      );
    });

    // Last in the file: it spends this address's registrations for the window.
    it('registrations are bounded per client address', async () => {
      let refused: { status: number; json: any } | undefined;
      for (let i = 0; i < 31 && !refused; i++) {
        const r = await register();
        if (r.status !== 201) refused = r;
      }
      expect(refused?.status).toBe(429);
      expect(refused?.json.error).toBe('too_many_requests');
    });
  });
});
