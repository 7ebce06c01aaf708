// Two exchanges of one code at once: one wins, and the other is a replay, so it revokes what the winner got
// (RFC 6749 4.1.2), even when it arrives between the code being spent and the grant being written.
import { describe, expect, it } from 'vitest';
import { useOAuthService } from '../support/oauth-flow.ts';

describe('concurrent exchanges of one code', () => {
  const t = useOAuthService();

  it('the losing exchange is a replay: the winner’s tokens are revoked, every time', async () => {
    const web = await t.f.signedIn();
    const { json: client } = await t.f.register();
    for (let round = 0; round < 8; round++) {
      const { code, verifier } = await t.f.codeFor(web, client.client_id);
      const body = {
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        client_id: client.client_id,
        redirect_uri: t.callback.url,
      };
      const answers = await Promise.all([t.f.token(body), t.f.token(body)]);
      const won = answers.filter((a) => a.status === 200);
      expect(won).toHaveLength(1);
      expect(answers.find((a) => a.status !== 200)?.json).toMatchObject({ error: 'invalid_grant' });
      const refresh = await t.f.token({
        grant_type: 'refresh_token',
        refresh_token: won[0]!.json.refresh_token,
        client_id: client.client_id,
      });
      expect(refresh.json).toMatchObject({ error: 'invalid_grant' });
      expect(await t.f.mcpStatus(won[0]!.json.access_token)).toBe(401);
    }
  });
});
