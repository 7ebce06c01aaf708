// The OAuth authorization code flow over plain HTTP, as an MCP client drives it: registration, the consent page's
// Allow, the token endpoint. For tests of the authorization server's rules (test/oauth).
import pkceChallenge from 'pkce-challenge';
import { afterAll, beforeAll } from 'vitest';
import { newEmail, sessionClient } from '../web/session-client.ts';
import { startCallbackServer } from './oauth-client.ts';
import { startTestServer, type TestServer } from './test-server.ts';

/** Parameters set to undefined are left out of the request. */
const withoutUnset = (o: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Record<string, string>;

type WebSession = ReturnType<typeof sessionClient>;

function oauthFlow(base: string, callbackUrl: string) {
  const form = (body: Record<string, string> | string, headers: Record<string, string> = {}) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: typeof body === 'string' ? body : new URLSearchParams(body).toString(),
  });
  const register = async (meta: Record<string, unknown> = {}) => {
    const res = await fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Flow test client',
        redirect_uris: [callbackUrl],
        token_endpoint_auth_method: 'none',
        application_type: 'native',
        ...meta,
      }),
    });
    return { status: res.status, json: await res.json() };
  };
  const signedIn = async (): Promise<WebSession> => {
    const web = sessionClient(base);
    const r = await web.signUp(newEmail());
    if (r.status !== 200) throw new Error(`sign-up: ${r.status}`);
    return web;
  };
  /** GET /oauth/authorize with a raw query string (so a test can repeat or mangle parameters). */
  const authorizeRaw = async (query: string, web?: WebSession) => {
    const res = await fetch(`${base}/oauth/authorize?${query}`, {
      headers: web ? { cookie: web.cookie } : {},
      redirect: 'manual',
    });
    return { status: res.status, location: res.headers.get('location'), html: await res.text() };
  };
  /** The authorization request, then the consent form's decision; answers the page or the redirect. */
  const authorize = async (web: WebSession, params: Record<string, string>, decision = 'allow') => {
    const page = await authorizeRaw(new URLSearchParams(params).toString(), web);
    if (page.status !== 200) return page;
    const res = await fetch(`${base}/oauth/authorize`, {
      ...form({ ...params, csrf: web.csrf, decision }, { cookie: web.cookie }),
      redirect: 'manual',
    });
    return { status: res.status, location: res.headers.get('location'), html: await res.text() };
  };
  const pkce = () => pkceChallenge();
  /** A complete authorization: the code and its verifier, for `clientId`. */
  const codeFor = async (web: WebSession, clientId: string, extra: Record<string, string | undefined> = {}) => {
    const p = await pkce();
    const r = await authorize(
      web,
      withoutUnset({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: callbackUrl,
        code_challenge: p.code_challenge,
        code_challenge_method: 'S256',
        state: 'st4te',
        resource: `${base}/mcp`,
        ...extra,
      }),
    );
    const code = r.location ? new URL(r.location).searchParams.get('code') : null;
    if (!code) throw new Error(`no code: ${r.status} ${r.location} ${r.html.slice(0, 300)}`);
    return { code, verifier: p.code_verifier };
  };
  const token = async (body: Record<string, string> | string) => {
    const res = await fetch(`${base}/oauth/token`, form(body));
    return { status: res.status, json: await res.json().catch(() => null), type: res.headers.get('content-type') };
  };
  /** Signed in, registered, authorized and exchanged: a live grant. */
  const issued = async (web?: WebSession) => {
    const session = web ?? (await signedIn());
    const { json: client } = await register();
    const { code, verifier } = await codeFor(session, client.client_id);
    const t = await token({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      client_id: client.client_id,
      redirect_uri: callbackUrl,
      resource: `${base}/mcp`,
    });
    if (t.status !== 200) throw new Error(`token: ${t.status} ${JSON.stringify(t.json)}`);
    return {
      web: session,
      clientId: client.client_id as string,
      tokens: t.json as { access_token: string; refresh_token: string },
    };
  };
  /** An MCP tool call with an access token: 200 while the grant lives, 401 once it is revoked. */
  const mcpStatus = async (accessToken: string) =>
    (
      await fetch(`${base}/mcp`, {
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
      })
    ).status;
  return { register, signedIn, authorize, authorizeRaw, pkce, codeFor, token, issued, mcpStatus, form };
}

export interface OAuthService {
  s: TestServer;
  callback: Awaited<ReturnType<typeof startCallbackServer>>;
  f: ReturnType<typeof oauthFlow>;
}

/** A service, a redirect receiver and the flow over them, started before the enclosing block and closed after it. */
export function useOAuthService(env: Record<string, string> = {}): OAuthService {
  const t = {} as OAuthService;
  beforeAll(async () => {
    t.s = await startTestServer({ DAILY_FREE_CREDITS: '10', ...env });
    t.callback = await startCallbackServer();
    t.f = oauthFlow(t.s.url, t.callback.url);
  });
  afterAll(async () => {
    await t.callback?.close();
    await t.s?.close();
  });
  return t;
}
