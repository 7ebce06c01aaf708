// Issue 38 items 1 and 3, issue 32 item 6: the token endpoint validates everything before it spends anything (a
// refresh token's rotation, a code), reads each parameter once, and refuses in OAuth's own error shape.
import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { useOAuthService } from '../support/oauth-flow.ts';

/** A raw POST (bytes as given, chunked when asked): what no well-behaved client library would send. */
function rawPost(url: string, path: string, type: string, body: Buffer, chunked = false) {
  return new Promise<{ status: number; type: string; json: any }>((resolve, reject) => {
    const u = new URL(path, url);
    const req = httpRequest(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        headers: { 'content-type': type, ...(chunked ? {} : { 'content-length': String(body.length) }) },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d) => parts.push(d));
        res.on('end', () => {
          const text = Buffer.concat(parts).toString();
          let json: any = null;
          try {
            json = JSON.parse(text);
          } catch {}
          resolve({ status: res.statusCode!, type: String(res.headers['content-type']), json });
        });
      },
    );
    req.on('error', reject);
    if (chunked) {
      // Several writes with no content-length: Node sends the body chunked, so only the counting reader sees its size.
      for (let i = 0; i < body.length; i += 16 * 1024) req.write(body.subarray(i, i + 16 * 1024));
      req.end();
    } else req.end(body);
  });
}

describe('the token endpoint', () => {
  const t = useOAuthService();

  it('a refresh for another resource is refused without rotating: the old token still works, the grant lives', async () => {
    const { clientId, tokens } = await t.f.issued();
    for (const resource of [`${t.s.url}/mcp/`, 'https://elsewhere.example/mcp']) {
      const wrong = await t.f.token({
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: clientId,
        resource,
      });
      expect(wrong).toMatchObject({ status: 400, json: { error: 'invalid_target' } });
    }
    // The client retries with the token it holds: not a replay, the grant is intact.
    const retried = await t.f.token({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: clientId,
      resource: `${t.s.url}/mcp`,
    });
    expect(retried.status).toBe(200);
    expect(await t.f.mcpStatus(tokens.access_token)).toBe(200);
    expect(await t.f.mcpStatus(retried.json.access_token)).toBe(200);
  });

  it('redirect_uri is needed only when the authorization request carried it (RFC 6749 4.1.3)', async () => {
    const web = await t.f.signedIn();
    const { json: client } = await t.f.register();
    // One registered redirect URI: the authorization request may leave it out, and then so may the exchange.
    const omitted = await t.f.codeFor(web, client.client_id, { redirect_uri: undefined });
    // Sent empty, it counts as omitted (RFC 6749 3.1).
    const ok = await t.f.token({
      grant_type: 'authorization_code',
      code: omitted.code,
      code_verifier: omitted.verifier,
      client_id: client.client_id,
      redirect_uri: '',
    });
    expect(ok.status).toBe(200);
    // Carried in the authorization request: required, and identical.
    const carried = await t.f.codeFor(web, client.client_id);
    const base = {
      grant_type: 'authorization_code',
      code: carried.code,
      code_verifier: carried.verifier,
      client_id: client.client_id,
    };
    expect((await t.f.token(base)).json).toMatchObject({ error: 'invalid_grant' });
    expect((await t.f.token({ ...base, redirect_uri: `${t.callback.url}x` })).json).toMatchObject({
      error: 'invalid_grant',
    });
    expect((await t.f.token({ ...base, redirect_uri: t.callback.url })).status).toBe(200);
  });

  it('a failed exchange does not use up the code; a used code still cannot be used twice', async () => {
    const web = await t.f.signedIn();
    const { json: client } = await t.f.register();
    const { code, verifier } = await t.f.codeFor(web, client.client_id);
    const base = {
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      client_id: client.client_id,
      redirect_uri: t.callback.url,
    };
    const wrongVerifier = (await t.f.pkce()).code_verifier;
    expect((await t.f.token({ ...base, code_verifier: wrongVerifier })).json).toMatchObject({ error: 'invalid_grant' });
    expect((await t.f.token({ ...base, resource: 'https://elsewhere.example/mcp' })).json).toMatchObject({
      error: 'invalid_target',
    });
    expect((await t.f.token({ ...base, client_id: 'oac_someoneelse' })).json).toMatchObject({ error: 'invalid_grant' });
    const ok = await t.f.token(base);
    expect(ok.status).toBe(200);
    expect((await t.f.token(base)).json).toMatchObject({ error: 'invalid_grant' });
    // The replay revoked what the code gave.
    expect(await t.f.mcpStatus(ok.json.access_token)).toBe(401);
  });

  it('a repeated parameter is refused (RFC 6749 3.2), and the refusal spends nothing', async () => {
    const { clientId, tokens } = await t.f.issued();
    const q = new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: clientId,
    });
    for (const twice of [`${q}&client_id=${clientId}`, `${q}&resource=a&resource=b`, `${q}&grant_type=refresh_token`]) {
      const r = await t.f.token(twice);
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ error: 'invalid_request', error_description: expect.stringMatching(/more than once/) });
    }
    expect((await t.f.token(q.toString())).status).toBe(200);
  });

  it("a body over 64 KiB is 413 in OAuth's shape, declared or chunked", async () => {
    const big = Buffer.from(`grant_type=authorization_code&code=${'A'.repeat(70 * 1024)}`);
    for (const chunked of [false, true]) {
      const r = await rawPost(t.s.url, '/oauth/token', 'application/x-www-form-urlencoded', big, chunked);
      expect(r.status).toBe(413);
      expect(r.json).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
    }
  });

  it("a NUL, invalid UTF-8 or a body that is not a form is refused as invalid_request, in OAuth's shape", async () => {
    const form = 'application/x-www-form-urlencoded';
    for (const [type, body] of [
      [form, Buffer.from('grant_type=refresh_token&refresh_token=srt_x&client_id=a%00b')],
      [form, Buffer.from('grant_type=authorization_code&code=abc&client_id=%FF%FE&code_verifier=x')],
      [form, Buffer.from([...Buffer.from('grant_type=refresh_token&client_id=a&refresh_token='), 0xff, 0xfe])],
      [form, Buffer.from('grant_type=refresh_token&client_id=\u0000&refresh_token=x')],
      ['application/json', Buffer.from('{"grant_type":"refresh_token"}')],
    ] as const) {
      for (const path of ['/oauth/token', '/oauth/revoke']) {
        const r = await rawPost(t.s.url, path, type, body);
        expect([path, r.status, r.type]).toEqual([path, 400, expect.stringContaining('application/json')]);
        expect(r.json).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
      }
    }
  });
});
