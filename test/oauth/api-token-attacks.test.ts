// Attacks on OAuth access tokens for REST and tRPC (scope "api") and on the CORS that lets listed pages use them:
// a token is the account it was granted by and only that, for the surfaces its scope names, while its grant lives;
// anything else sent as a Bearer is refused (401 or 403 in the spec's shape, never a 500); CORS grants exactly the
// listed origins, without credentials, with Vary: Origin, on every answer of /api/v1 and /trpc (refusals included).
import { createAccessTokens } from '../../src/infra/oauth/access-tokens.ts';
import { describe, expect, it } from 'vitest';
import { rest } from '../support/clients.ts';
import { useOAuthService } from '../support/oauth-flow.ts';

const LISTED = 'https://app.example.com';

describe('api tokens under attack', () => {
  const t = useOAuthService({ API_ALLOWED_ORIGINS: LISTED });

  /** A live grant of scope `scope` for a new account. */
  async function apiGrant(scope = 'api') {
    const web = await t.f.signedIn();
    const { json: client } = await t.f.register({ scope });
    const { code, verifier } = await t.f.codeFor(web, client.client_id, { scope, resource: undefined });
    const issued = await t.f.token({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      client_id: client.client_id,
      redirect_uri: t.callback.url,
    });
    expect(issued.status).toBe(200);
    return { web, clientId: client.client_id as string, tokens: issued.json };
  }

  const get = (path: string, headers: Record<string, string>) =>
    fetch(`${t.s.url}${path}`, { headers }).then(async (r) => ({
      status: r.status,
      text: await r.text(),
      headers: r.headers,
    }));

  it("account A's token never reaches account B's data", async () => {
    const a = await apiGrant();
    const b = await t.s.newKey({ credits: 3 });
    const batch = await rest(t.s.url, 'POST', '/batches', {
      key: b.key,
      body: { videos: ['dQw4w9WgXcQ'], operation: { type: 'transcript' } },
    });
    expect(batch.status, batch.text).toBeLessThan(300);
    const id = batch.json.id as string;
    expect((await rest(t.s.url, 'GET', `/batches/${id}`, { key: b.key })).status).toBe(200);
    const stolen = await rest(t.s.url, 'GET', `/batches/${id}`, { key: a.tokens.access_token });
    expect([stolen.status, stolen.json?.error?.code], stolen.text).toEqual([404, 'JOB_NOT_FOUND']);
    const credits = await rest(t.s.url, 'GET', '/credits', { key: a.tokens.access_token });
    expect(credits.json.balance).toBe(10);
  });

  it('a refresh token, a forged, expired or other-audience token, garbage shaped like a JWT: 401, never 500', async () => {
    const a = await apiGrant();
    const [row] = await t.s.deps.sql<{ value: string }[]>`select value from settings where key = 'oauth_token_secret'`;
    const claims = (await t.s.deps.oauth.tokens.verify(a.tokens.access_token, t.s.url))!;
    expect(claims).not.toBeNull();
    const signer = (ttlSeconds: number, issuer = t.s.url) =>
      createAccessTokens({ secret: row!.value, issuer, ttlSeconds });
    const expired = await signer(-60).issue({ ...claims, audience: [t.s.url] });
    const otherAudience = await signer(900).issue({ ...claims, audience: [`${t.s.url}/api/v1`] });
    const otherIssuer = await signer(900, 'https://elsewhere.example').issue({ ...claims, audience: [t.s.url] });
    const wrongKey = await createAccessTokens({ secret: 'x'.repeat(64), issuer: t.s.url, ttlSeconds: 900 }).issue({
      ...claims,
      audience: [t.s.url],
    });
    const [h, p] = a.tokens.access_token.split('.');
    const none = `${Buffer.from('{"alg":"none","typ":"at+jwt"}').toString('base64url')}.${p}.`;
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), sub: 'acc_other' })).toString('base64url')}.${a.tokens.access_token.split('.')[2]}`;
    const garbage = ['a.b.c', 'x.y.', '-.-.-', 'eyJ.eyJ.sig', `${'A'.repeat(2000)}.${'B'.repeat(4000)}.C`, '..', '.a.'];
    for (const token of [
      a.tokens.refresh_token,
      expired,
      otherAudience,
      otherIssuer,
      wrongKey,
      none,
      tampered,
      ...garbage,
    ]) {
      const r = await rest(t.s.url, 'GET', '/credits', { key: token });
      expect([r.status, r.json?.error?.code], `${token.slice(0, 60)}: ${r.text}`).toEqual([401, 'INVALID_API_KEY']);
      const trpc = await get('/trpc/credits.get?input=%7B%7D', { authorization: `Bearer ${token}` });
      expect(trpc.status, `trpc ${token.slice(0, 60)}: ${trpc.text}`).toBe(401);
      expect(await t.f.mcpStatus(token), `mcp ${token.slice(0, 60)}`).toBe(401);
    }
  });

  it('a revoked grant, and a key sent beside a token, are refused on the next request', async () => {
    const a = await apiGrant();
    const other = await t.s.newKey({ credits: 1 });
    // Both sent: the request is refused rather than read as either caller.
    const both = await get('/api/v1/credits', {
      authorization: `Bearer ${a.tokens.access_token}`,
      'x-api-key': other.key,
    });
    expect(both.status, both.text).toBe(401);
    expect((await rest(t.s.url, 'GET', '/credits', { key: a.tokens.access_token })).status).toBe(200);
    const res = await fetch(
      `${t.s.url}/oauth/revoke`,
      t.f.form({ token: a.tokens.refresh_token, client_id: a.clientId }),
    );
    expect(res.status).toBe(200);
    const after = await rest(t.s.url, 'GET', '/credits', { key: a.tokens.access_token });
    expect([after.status, after.json?.error?.code]).toEqual([401, 'INVALID_API_KEY']);
  });

  it('a refresh token raced by several requests rotates once, and never answers 500', async () => {
    const a = await apiGrant();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        t.f.token({ grant_type: 'refresh_token', refresh_token: a.tokens.refresh_token, client_id: a.clientId }),
      ),
    );
    expect(answers.map((x) => x.status).filter((x) => x === 200).length, JSON.stringify(answers)).toBeLessThanOrEqual(
      1,
    );
    for (const x of answers) expect([200, 400], JSON.stringify(x.json)).toContain(x.status);
    for (const x of answers.filter((x) => x.status === 400)) expect(x.json.error).toBe('invalid_grant');
  });

  it('scope cannot grow: not at authorization (mcp client asking api), not at refresh', async () => {
    const web = await t.f.signedIn();
    const { json: mcpOnly } = await t.f.register();
    for (const scope of ['mcp api', 'api', 'api api', 'mcp\tapi', 'MCP']) {
      const p = await t.f.pkce();
      const page = await t.f.authorizeRaw(
        new URLSearchParams({
          response_type: 'code',
          client_id: mcpOnly.client_id,
          redirect_uri: t.callback.url,
          code_challenge: p.code_challenge,
          code_challenge_method: 'S256',
          scope,
        }).toString(),
        web,
      );
      expect([scope, page.status], page.html.slice(0, 300)).toEqual([scope, 400]);
    }
    const a = await apiGrant('api');
    const refreshed = await t.f.token({
      grant_type: 'refresh_token',
      refresh_token: a.tokens.refresh_token,
      client_id: a.clientId,
      scope: 'api mcp',
    });
    if (refreshed.status === 200) {
      expect(refreshed.json.scope).toBe('api');
      expect(await t.f.mcpStatus(refreshed.json.access_token)).toBe(401);
    } else expect(refreshed.json.error).toBe('invalid_scope');
  });
});

describe('CORS for listed origins', () => {
  const t = useOAuthService({ API_ALLOWED_ORIGINS: LISTED, MAX_BODY_BYTES: '2048' });

  it('only the exact listed origin is granted; null, case, port, slash and suffix variants are not', async () => {
    for (const origin of [
      'null',
      'https://app.example.com/',
      'https://APP.example.com',
      'https://app.example.com:8443',
      'http://app.example.com',
      'https://app.example.com.evil.example',
      'https://evil.example',
    ]) {
      for (const path of ['/api/v1/credits', '/trpc/credits.get?input=%7B%7D']) {
        const r = await fetch(`${t.s.url}${path}`, { headers: { origin } });
        expect(r.headers.get('access-control-allow-origin'), `${origin} ${path}`).toBeNull();
        expect(r.headers.get('vary') ?? '', `${origin} ${path}`).toMatch(/origin/i);
      }
    }
  });

  it('never with credentials; the preflight names no method or header beyond what the API takes', async () => {
    const pre = await fetch(`${t.s.url}/api/v1/batches`, {
      method: 'OPTIONS',
      headers: {
        origin: LISTED,
        'access-control-request-method': 'DELETE',
        'access-control-request-headers': 'x-csrf-token, cookie',
      },
    });
    expect(pre.headers.get('access-control-allow-credentials')).toBeNull();
    expect(pre.headers.get('access-control-allow-headers') ?? '').not.toMatch(/csrf|cookie/i);
    expect(pre.headers.get('vary') ?? '').toMatch(/origin/i);
    // Exactly the methods the API serves: REST's DELETE /watches/{id} included, nothing it does not serve.
    const methods = (pre.headers.get('access-control-allow-methods') ?? '').split(',').map((m) => m.trim());
    expect(methods).toContain('DELETE');
    for (const m of ['PUT', 'PATCH']) expect(methods).not.toContain(m);
  });

  it('a listed page can delete its watch over REST with its token (the preflight allows DELETE)', async () => {
    const pre = await fetch(`${t.s.url}/api/v1/watches/wat_x`, {
      method: 'OPTIONS',
      headers: {
        origin: LISTED,
        'access-control-request-method': 'DELETE',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(pre.headers.get('access-control-allow-origin')).toBe(LISTED);
    expect(pre.headers.get('access-control-allow-methods') ?? '').toMatch(/\bDELETE\b/);
  });

  it('a listed page can read every refusal, the edge’s own included (bad Unicode, too large a body)', async () => {
    const cases: [string, RequestInit][] = [
      ['/api/v1/credits', { headers: { origin: LISTED } }],
      ['/api/v1/articles?query=%FF', { headers: { origin: LISTED } }],
      [
        '/api/v1/batches',
        {
          method: 'POST',
          headers: { origin: LISTED, 'content-type': 'application/json' },
          body: '{"playlist":"\\ud800"}',
        },
      ],
      [
        '/trpc/batches.create',
        {
          method: 'POST',
          headers: { origin: LISTED, 'content-type': 'application/json' },
          body: JSON.stringify({ playlist: 'x'.repeat(4000) }),
        },
      ],
    ];
    for (const [path, init] of cases) {
      const r = await fetch(`${t.s.url}${path}`, init);
      expect(r.status, path).toBeGreaterThanOrEqual(400);
      expect(r.status, path).toBeLessThan(500);
      expect(r.headers.get('access-control-allow-origin'), `${path} ${r.status}`).toBe(LISTED);
      expect(r.headers.get('access-control-allow-credentials'), path).toBeNull();
    }
  });

  it('the website’s own routes carry no CORS grant', async () => {
    for (const path of ['/', '/sign-in', '/keys', '/oauth/authorize']) {
      const r = await fetch(`${t.s.url}${path}`, { headers: { origin: LISTED }, redirect: 'manual' });
      expect(r.headers.get('access-control-allow-origin'), path).toBeNull();
    }
  });
});
