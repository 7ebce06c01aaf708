// Issue 38 item 2 and issue 32 item 6: /oauth/authorize redirects an error only to a client the signed-in user has
// approved (RFC 9700 4.11.2); for anyone else it shows its error page, as it does for a repeated parameter or text
// that is not valid Unicode, so a link on this service's address never lands on a page a stranger chose.
import { describe, expect, it } from 'vitest';
import { useOAuthService } from '../support/oauth-flow.ts';

describe('/oauth/authorize and untrusted redirects', () => {
  const t = useOAuthService();

  const failing = async (clientId: string, redirectUri: string, extra: Record<string, string> = {}) => {
    const p = await t.f.pkce();
    return new URLSearchParams({
      response_type: 'token',
      client_id: clientId,
      redirect_uri: redirectUri,
      code_challenge: p.code_challenge,
      code_challenge_method: 'S256',
      state: 'st4te',
      ...extra,
    }).toString();
  };
  const expectErrorPage = (r: { status: number; location: string | null; html: string }, code: string) => {
    expect([r.status, r.location]).toEqual([400, null]);
    expect(r.html).toContain(`id="error-code">${code}<`);
  };

  it('a failing request from a client nobody approved shows the error page, signed in or not', async () => {
    // Anyone may register any https redirect URI without an account: a phishing page, say.
    const phishing = 'https://phish.example/login';
    const { json: client } = await t.f.register({ redirect_uris: [phishing], application_type: 'web' });
    expectErrorPage(await t.f.authorizeRaw(await failing(client.client_id, phishing)), 'unsupported_response_type');
    const web = await t.f.signedIn();
    expectErrorPage(
      await t.f.authorizeRaw(await failing(client.client_id, phishing), web),
      'unsupported_response_type',
    );
    // No PKCE either: still the page.
    const noPkce = new URLSearchParams({ response_type: 'code', client_id: client.client_id, redirect_uri: phishing });
    expectErrorPage(await t.f.authorizeRaw(noPkce.toString(), web), 'invalid_request');
  });

  it('a client the signed-in user approved gets its error by redirect; for another user, or once revoked, the page', async () => {
    const { web, clientId, tokens } = await t.f.issued();
    const r = await t.f.authorizeRaw(await failing(clientId, t.callback.url), web);
    expect(r.status).toBe(302);
    const back = new URL(r.location!);
    expect(back.origin + back.pathname).toBe(t.callback.url);
    expect(back.searchParams.get('error')).toBe('unsupported_response_type');
    expect(back.searchParams.get('state')).toBe('st4te');
    expect(back.searchParams.get('iss')).toBe(t.s.url);
    // Before sign-in nobody is known to have approved it.
    expectErrorPage(await t.f.authorizeRaw(await failing(clientId, t.callback.url)), 'unsupported_response_type');
    expectErrorPage(
      await t.f.authorizeRaw(await failing(clientId, t.callback.url), await t.f.signedIn()),
      'unsupported_response_type',
    );
    // Revoked by the user: no longer trusted.
    await fetch(`${t.s.url}/oauth/revoke`, t.f.form({ token: tokens.refresh_token }));
    expectErrorPage(await t.f.authorizeRaw(await failing(clientId, t.callback.url), web), 'unsupported_response_type');
  });

  it('a repeated parameter is refused (RFC 6749 3.1): the page, or a redirect for an approved client', async () => {
    const { web, clientId } = await t.f.issued();
    const good = await failing(clientId, t.callback.url, { response_type: 'code' });
    const twiceClient = await t.f.authorizeRaw(`${good}&client_id=${clientId}`, web);
    expect([twiceClient.status, twiceClient.location]).toEqual([400, null]);
    expect(twiceClient.html).toContain('more than once');
    const twiceRedirect = await t.f.authorizeRaw(`${good}&redirect_uri=${encodeURIComponent(t.callback.url)}`, web);
    expect([twiceRedirect.status, twiceRedirect.location]).toEqual([400, null]);
    const twiceScope = await t.f.authorizeRaw(`${good}&scope=mcp&scope=mcp`, web);
    expect(twiceScope.status).toBe(302);
    expect(new URL(twiceScope.location!).searchParams.get('error')).toBe('invalid_request');
    // The same for a client nobody approved: the page.
    const { json: stranger } = await t.f.register();
    const strangerQuery = await failing(stranger.client_id, t.callback.url, { response_type: 'code' });
    expectErrorPage(await t.f.authorizeRaw(`${strangerQuery}&state=again`, web), 'invalid_request');
  });

  it('a NUL or invalid UTF-8 in the query or the consent form is the 400 page, never JSON or a 500', async () => {
    const { web, clientId } = await t.f.issued();
    const { json: stranger } = await t.f.register();
    for (const id of [clientId, stranger.client_id]) {
      for (const bad of ['a%00b', '%FF%FE', '%ED%A0%80']) {
        const r = await t.f.authorizeRaw(
          `${await failing(id, t.callback.url, { response_type: 'code' })}&resource=${bad}`,
        );
        expect([r.status, r.location]).toEqual([400, null]);
        expect(r.html).toContain('invalid_request');
      }
    }
    // An approved client, signed in: redirected with the error.
    const known = await t.f.authorizeRaw(
      `${await failing(clientId, t.callback.url, { response_type: 'code' })}&resource=%FF`,
      web,
    );
    expect(known.status).toBe(302);
    expect(new URL(known.location!).searchParams.get('error')).toBe('invalid_request');
    // The client_id itself unreadable: nothing to trust, the page.
    const unreadable = await t.f.authorizeRaw('response_type=code&client_id=%FF', web);
    expect([unreadable.status, unreadable.location]).toEqual([400, null]);
    const post = await fetch(`${t.s.url}/oauth/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: web.cookie },
      body: Buffer.from([...Buffer.from(`client_id=${clientId}&decision=allow&state=`), 0xff]),
      redirect: 'manual',
    });
    expect([post.status, post.headers.get('location'), post.headers.get('content-type')]).toEqual([
      400,
      null,
      expect.stringContaining('text/html'),
    ]);
  });

  it('a consent form over 64 KiB is the 413 page, not JSON', async () => {
    const res = await fetch(`${t.s.url}/oauth/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `state=${'A'.repeat(70 * 1024)}`,
      redirect: 'manual',
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain('invalid_request');
  });
});
