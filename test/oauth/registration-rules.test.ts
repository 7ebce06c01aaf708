// Issue 32 items 5 and 6: dynamic registration infers an absent application_type from the redirect URIs (2025 SDKs
// omit it), and answers every refusal in RFC 7591's shape: `{"error","error_description"}`, never ours, never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.ts';

describe('dynamic client registration', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  const post = async (body: string | Uint8Array<ArrayBuffer>) => {
    const res = await fetch(`${s.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    return { status: res.status, json: await res.json().catch(() => null) };
  };
  const register = (meta: Record<string, unknown>) =>
    post(JSON.stringify({ client_name: 'No type', token_endpoint_auth_method: 'none', ...meta }));

  it('infers application_type when it is absent, records it, and validates the redirect URIs by it', async () => {
    for (const [uris, type] of [
      [['http://127.0.0.1:33418/callback'], 'native'],
      [['http://localhost/cb', 'https://app.example/cb'], 'native'],
      [['com.example.app:/oauth/cb'], 'native'],
      [['https://app.example/cb', 'https://app.example/other'], 'web'],
    ] as const) {
      const r = await register({ redirect_uris: uris });
      expect([uris, r.status]).toEqual([uris, 201]);
      expect(r.json.application_type).toBe(type);
      const stored = await s.deps.oauth.store.findClient(r.json.client_id);
      expect(stored?.metadata).toMatchObject({ application_type: type, application_type_inferred: true });
    }
    // Given explicitly: kept, and not marked inferred.
    const given = await register({ redirect_uris: ['https://app.example/cb'], application_type: 'native' });
    expect(given.json.application_type).toBe('native');
    expect((await s.deps.oauth.store.findClient(given.json.client_id))?.metadata.application_type_inferred).toBe(false);
    // Inference never loosens the redirect URI rules.
    expect((await register({ redirect_uris: ['http://evil.example/cb'] })).json.error).toBe('invalid_redirect_uri');
  });

  it('still refuses a wrong explicit application_type', async () => {
    for (const [meta, error] of [
      [{ redirect_uris: ['https://app.example/cb'], application_type: 'desktop' }, 'invalid_client_metadata'],
      [{ redirect_uris: ['https://app.example/cb'], application_type: 5 }, 'invalid_client_metadata'],
      [{ redirect_uris: ['https://app.example/cb'], application_type: null }, 'invalid_client_metadata'],
      [{ redirect_uris: ['http://127.0.0.1/cb'], application_type: 'web' }, 'invalid_redirect_uri'],
    ] as const) {
      const r = await register(meta);
      expect([meta, r.status, r.json.error]).toEqual([meta, 400, error]);
    }
  });

  it('lone surrogates, invalid UTF-8 and oversize bodies are refused in the OAuth shape', async () => {
    const oauthShape = { error: 'invalid_request', error_description: expect.any(String) };
    for (const body of [
      '{"client_name":"\\ud800","redirect_uris":["https://app.example/cb"]}',
      '{"client_name":"ok","redirect_uris":["https://app.example/cb"],"software_id":"\\udfff"}',
      '{"client_name":"ok","redirect_uris":["https://app.example/cb\\ud800"]}',
      new Uint8Array([
        ...Buffer.from('{"client_name":"'),
        0xff,
        0xfe,
        ...Buffer.from('","redirect_uris":["https://a.example/cb"]}'),
      ]),
    ]) {
      const r = await post(body);
      expect([String(body), r.status, r.json]).toEqual([String(body), 400, oauthShape]);
    }
    const big = await post(
      JSON.stringify({ redirect_uris: ['https://app.example/cb'], client_name: 'x'.repeat(70 * 1024) }),
    );
    expect(big).toEqual({ status: 413, json: oauthShape });
  });
});
