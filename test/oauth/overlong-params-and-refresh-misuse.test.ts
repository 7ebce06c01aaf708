// Attacks on the authorization server that must hold: a refresh token used by another client, concurrent refreshes,
// a redirect_uri or state too long to keep (never silently dropped), hostile text on every endpoint.
import { describe, expect, it } from 'vitest';
import { useOAuthService } from '../support/oauth-flow.ts';

describe('attacks on the authorization server', () => {
  const t = useOAuthService();

  it("client A's refresh token presented with client B's id is refused and leaves A's grant alive", async () => {
    const a = await t.f.issued();
    const { json: b } = await t.f.register();
    const stolen = await t.f.token({
      grant_type: 'refresh_token',
      refresh_token: a.tokens.refresh_token,
      client_id: b.client_id,
    });
    expect(stolen).toMatchObject({ status: 400, json: { error: 'invalid_grant' } });
    const own = await t.f.token({
      grant_type: 'refresh_token',
      refresh_token: a.tokens.refresh_token,
      client_id: a.clientId,
    });
    expect(own.status).toBe(200);
  });

  it('two concurrent refreshes with one token: one rotates, the other is a replay that revokes the grant', async () => {
    const a = await t.f.issued();
    const body = { grant_type: 'refresh_token', refresh_token: a.tokens.refresh_token, client_id: a.clientId };
    const answers = await Promise.all([t.f.token(body), t.f.token(body)]);
    expect(answers.map((x) => x.status).sort()).toEqual([200, 400]);
    const won = answers.find((x) => x.status === 200)!;
    expect(await t.f.mcpStatus(won.json.access_token)).toBe(401);
  });

  it('a redirect_uri too long to be registered is refused on the page, not taken as omitted', async () => {
    const web = await t.f.signedIn();
    const { json: client } = await t.f.register();
    const p = await t.f.pkce();
    const r = await t.f.authorizeRaw(
      new URLSearchParams({
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: `${t.callback.url}?${'x'.repeat(2100)}`,
        code_challenge: p.code_challenge,
        code_challenge_method: 'S256',
      }).toString(),
      web,
    );
    expect(r.status).toBe(400);
    expect(r.location).toBeNull();
  });

  it('a state too long to keep is refused, never dropped from the redirect', async () => {
    const web = await t.f.signedIn();
    const { json: client } = await t.f.register();
    const p = await t.f.pkce();
    const r = await t.f.authorizeRaw(
      new URLSearchParams({
        response_type: 'code',
        client_id: client.client_id,
        code_challenge: p.code_challenge,
        code_challenge_method: 'S256',
        state: 's'.repeat(2100),
      }).toString(),
      web,
    );
    // Never the consent page for a request whose state the redirect would lose.
    expect(r.status).toBe(400);
  });
});
