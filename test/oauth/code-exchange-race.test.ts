// Two exchanges of one code at once: one wins, and the other is a replay, so it revokes what the winner got
// (RFC 6749 4.1.2), even when it arrives between the code being spent and the grant being written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCallbackServer } from '../support/oauth-client.ts';
import { oauthFlow } from '../support/oauth-flow.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

describe('concurrent exchanges of one code', () => {
  let s: TestServer;
  let callback: Awaited<ReturnType<typeof startCallbackServer>>;
  let f: ReturnType<typeof oauthFlow>;

  beforeAll(async () => {
    s = await startTestServer({ DAILY_FREE_CREDITS: '10' });
    callback = await startCallbackServer();
    f = oauthFlow(s.url, callback.url);
  });
  afterAll(async () => {
    await callback?.close();
    await s?.close();
  });

  it('the losing exchange is a replay: the winner’s tokens are revoked, every time', async () => {
    const web = await f.signedIn();
    const { json: client } = await f.register();
    for (let round = 0; round < 8; round++) {
      const { code, verifier } = await f.codeFor(web, client.client_id);
      const body = {
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        client_id: client.client_id,
        redirect_uri: callback.url,
      };
      const answers = await Promise.all([f.token(body), f.token(body)]);
      const won = answers.filter((a) => a.status === 200);
      expect(won).toHaveLength(1);
      expect(answers.find((a) => a.status !== 200)?.json).toMatchObject({ error: 'invalid_grant' });
      const refresh = await f.token({
        grant_type: 'refresh_token',
        refresh_token: won[0]!.json.refresh_token,
        client_id: client.client_id,
      });
      expect(refresh.json).toMatchObject({ error: 'invalid_grant' });
      expect(await f.mcpStatus(won[0]!.json.access_token)).toBe(401);
    }
  });
});
