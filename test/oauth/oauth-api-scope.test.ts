// Issue 37 item 3: OAuth access tokens for REST and tRPC (scope "api"), so a browser app calls the API without a
// key. A token carries exactly the scopes the app asked for, within those it registered; one of scope "mcp" only is
// refused by REST and tRPC (403, the spec's error shape); CORS answers only the origins the operator lists.
import { describe, expect, it } from 'vitest';
import { rest, trpcClient } from '../support/clients.ts';
import { useOAuthService } from '../support/oauth-flow.ts';

const LISTED = 'https://app.example.com';

describe('OAuth scope "api"', () => {
  const t = useOAuthService({ API_ALLOWED_ORIGINS: LISTED });

  /** A grant for a client registered with `registered`, authorized asking for `asked` (no resource named). */
  async function grant(registered: string | undefined, asked: string | undefined) {
    const web = await t.f.signedIn();
    const { json: client } = await t.f.register(registered === undefined ? {} : { scope: registered });
    const { code, verifier } = await t.f.codeFor(web, client.client_id, { scope: asked, resource: undefined });
    const issued = await t.f.token({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      client_id: client.client_id,
      redirect_uri: t.callback.url,
    });
    expect(issued.status).toBe(200);
    return { clientId: client.client_id as string, tokens: issued.json };
  }

  it('an api token is accepted by REST and tRPC, and refused by /mcp', async () => {
    const { tokens } = await grant('api', 'api');
    expect(tokens.scope).toBe('api');
    const credits = await rest(t.s.url, 'GET', '/credits', { key: tokens.access_token });
    expect(credits.status).toBe(200);
    expect(credits.json).toMatchObject({ balance: 10 });
    expect(await trpcClient(t.s.url, tokens.access_token).credits.get.query({})).toMatchObject({ balance: 10 });
    expect(await t.f.mcpStatus(tokens.access_token)).toBe(401);
  });

  it('an mcp-only token is refused by REST and tRPC with 403 in the spec shape, and still works on /mcp', async () => {
    const { tokens } = await t.f.issued();
    expect(tokens).toMatchObject({ scope: 'mcp' });
    const refused = await rest(t.s.url, 'GET', '/credits', { key: tokens.access_token });
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({ error: { code: 'FORBIDDEN', message: expect.stringContaining('"api"') } });
    const viaTrpc = await fetch(`${t.s.url}/trpc/credits.get?input=%7B%7D`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(viaTrpc.status).toBe(403);
    expect((await viaTrpc.json()).error.data.code).toBe('FORBIDDEN');
    expect(await t.f.mcpStatus(tokens.access_token)).toBe(200);
  });

  it('a token gets only the scopes the app asked for, within those it registered', async () => {
    // Registered for both, asked for api: no mcp in the token.
    const onlyApi = await grant('mcp api', 'api');
    expect(onlyApi.tokens.scope).toBe('api');
    expect(await t.f.mcpStatus(onlyApi.tokens.access_token)).toBe(401);
    // Asked for both: both, and the refresh keeps exactly that.
    const both = await grant('mcp api', 'api mcp');
    expect(both.tokens.scope).toBe('api mcp');
    expect(await t.f.mcpStatus(both.tokens.access_token)).toBe(200);
    expect((await rest(t.s.url, 'GET', '/credits', { key: both.tokens.access_token })).status).toBe(200);
    const refreshed = await t.f.token({
      grant_type: 'refresh_token',
      refresh_token: onlyApi.tokens.refresh_token,
      client_id: onlyApi.clientId,
    });
    expect(refreshed.json.scope).toBe('api');
    // Asking nothing gives what the client registered; a client registered without a scope has "mcp" only.
    expect((await grant('api', undefined)).tokens.scope).toBe('api');
    expect((await grant(undefined, undefined)).tokens.scope).toBe('mcp');
  });

  it('asking for a scope the client did not register, or an unknown one, is refused', async () => {
    const web = await t.f.signedIn();
    const { json: mcpOnly } = await t.f.register();
    const p = await t.f.pkce();
    const page = await t.f.authorizeRaw(
      new URLSearchParams({
        response_type: 'code',
        client_id: mcpOnly.client_id,
        redirect_uri: t.callback.url,
        code_challenge: p.code_challenge,
        code_challenge_method: 'S256',
        scope: 'api',
      }).toString(),
      web,
    );
    expect(page.status).toBe(400);
    expect(page.html).toMatch(/invalid_scope/);
    expect(await t.f.register({ scope: 'api admin' })).toMatchObject({
      status: 400,
      json: { error: 'invalid_client_metadata' },
    });
  });

  it('a token for the api is refused for another resource at the token endpoint', async () => {
    const web = await t.f.signedIn();
    const { json: client } = await t.f.register({ scope: 'api' });
    const { code, verifier } = await t.f.codeFor(web, client.client_id, { scope: 'api', resource: undefined });
    const wrong = await t.f.token({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      client_id: client.client_id,
      redirect_uri: t.callback.url,
      resource: `${t.s.url}/mcp`,
    });
    expect(wrong).toMatchObject({ status: 400, json: { error: 'invalid_target' } });
  });

  it('CORS: a listed origin may read REST and tRPC answers, without cookies; an unlisted one gets no grant', async () => {
    for (const path of ['/api/v1/credits', '/trpc/credits.get']) {
      const preflight = (origin: string) =>
        fetch(`${t.s.url}${path}`, {
          method: 'OPTIONS',
          headers: {
            origin,
            'access-control-request-method': 'GET',
            'access-control-request-headers': 'authorization',
          },
        });
      const ok = await preflight(LISTED);
      expect(ok.headers.get('access-control-allow-origin')).toBe(LISTED);
      expect(ok.headers.get('access-control-allow-headers')).toMatch(/authorization/);
      expect(ok.headers.get('access-control-allow-credentials')).toBeNull();
      const evil = await preflight('https://evil.example');
      expect(evil.headers.get('access-control-allow-origin')).toBeNull();
      const answer = await fetch(`${t.s.url}${path}`, { headers: { origin: 'https://evil.example' } });
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    }
  });
});
