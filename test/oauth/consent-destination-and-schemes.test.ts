// The consent page names where the user will be sent in a way a client cannot dress up (a private-use scheme shows
// as a scheme, not as a web host it borrows), and https is recognised by its parsed scheme, whatever its case.
import { describe, expect, it } from 'vitest';
import { useOAuthService } from '../support/oauth-flow.ts';

describe('redirect destinations', () => {
  const t = useOAuthService();

  it('a private-use scheme is shown with its scheme on the consent page, not as the web host it names', async () => {
    const web = await t.f.signedIn();
    const uri = 'com.evil.app://accounts.example.com/cb';
    const { json: client } = await t.f.register({ redirect_uris: [uri] });
    const p = await t.f.pkce();
    const page = await t.f.authorizeRaw(
      new URLSearchParams({
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: uri,
        code_challenge: p.code_challenge,
        code_challenge_method: 'S256',
      }).toString(),
      web,
    );
    expect(page.status).toBe(200);
    expect(page.html).toContain('sent back to <strong>com.evil.app://accounts.example.com</strong>');
  });

  it('an https redirect URI written in capitals is https: a web application may register it', async () => {
    const r = await t.f.register({ application_type: 'web', redirect_uris: ['HTTPS://app.example.com/cb'] });
    expect(r.status).toBe(201);
    expect(r.json.application_type).toBe('web');
    const inferred = await t.f.register({ application_type: undefined, redirect_uris: ['HTTPS://app.example.com/cb'] });
    expect(inferred.json).toMatchObject({ application_type: 'web', application_type_inferred: true });
  });
});
