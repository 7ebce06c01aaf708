// Hostile text at the OAuth endpoints, which the Unicode edge leaves to their own readers: NULs, lone surrogates,
// bytes that are not UTF-8 in the body, the query and the headers (cookie and authorization included). Each is an
// OAuth-shaped 4xx (a JSON `error` string, or the authorize page), never a 500 or a database's own words.
import { Agent, request as httpRequest } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { useOAuthService } from '../support/oauth-flow.ts';

const DATABASE_WORDS =
  /postgres|syntax error|relation "|column "|invalid byte sequence|violates|out of range for|invalid input syntax|unsupported Unicode|SQLSTATE/i;

const agent = new Agent({ keepAlive: false });
afterAll(() => agent.destroy());

/** One request with target, headers and body bytes exactly as given. */
function send(base: string, method: string, target: string, headers: Record<string, string>, body?: Buffer | string) {
  const { hostname, port } = new URL(base);
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = httpRequest({ hostname, port, method, path: target, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

const latin1 = (bytes: number[]) => Buffer.from(bytes).toString('latin1');

describe('OAuth endpoints under hostile text', () => {
  const t = useOAuthService();

  it('register, token, revoke and authorize answer 4xx in OAuth’s shape', async () => {
    const web = await t.f.signedIn();
    const { json: client } = await t.f.register();
    const findings: string[] = [];
    const check = async (what: string, r: Promise<{ status: number; text: string }>) => {
      const a = await r;
      if (a.status >= 500 || DATABASE_WORDS.test(a.text)) findings.push(`${what}: ${a.status} ${a.text.slice(0, 200)}`);
    };
    const json = { 'content-type': 'application/json' };
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    for (const v of ['\\u0000', '\\ud800', '\\udc00x', 'a\\u0000b']) {
      for (const field of ['client_name', 'client_uri', 'scope', 'application_type', 'token_endpoint_auth_method'])
        await check(
          `register ${field} ${v}`,
          send(t.s.url, 'POST', '/oauth/register', json, `{"redirect_uris":["${t.callback.url}"],"${field}":"${v}"}`),
        );
      await check(
        `register redirect ${v}`,
        send(t.s.url, 'POST', '/oauth/register', json, `{"redirect_uris":["${t.callback.url}${v}"]}`),
      );
      await check(`register key ${v}`, send(t.s.url, 'POST', '/oauth/register', json, `{"${v}":1}`));
    }
    const rawBodies = [
      Buffer.from([...Buffer.from('grant_type=refresh_token&refresh_token='), 0xff, 0xfe]),
      'grant_type=authorization_code&code=%00&code_verifier=%ED%A0%80&client_id=x',
      `grant_type=refresh_token&refresh_token=%C0%80&client_id=${client.client_id}`,
      `grant_type=authorization_code&code=${'x'.repeat(5000)}&client_id=${client.client_id}`,
      `token=%ED%A0%80&client_id=${client.client_id}`,
      'token=eyJhbGciOiJIUzI1NiJ9.eyJpYXQiOjFlMjB9.x',
    ];
    for (const body of rawBodies) {
      await check(`token ${String(body).slice(0, 40)}`, send(t.s.url, 'POST', '/oauth/token', form, body));
      await check(`revoke ${String(body).slice(0, 40)}`, send(t.s.url, 'POST', '/oauth/revoke', form, body));
    }
    const badHeaders: Record<string, string>[] = [
      { authorization: `Basic ${latin1([0xff, 0xfe])}` },
      { authorization: `Bearer ${latin1([0xc3, 0x28])}` },
      { cookie: `${web.cookie}${latin1([0xff])}` },
      { cookie: `session=${latin1([0xed, 0xa0, 0x80])}` },
      { 'x-forwarded-for': latin1([0xff, 0xfe]) },
    ];
    const authorizeQuery = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: t.callback.url,
      code_challenge: 'x'.repeat(43),
      code_challenge_method: 'S256',
    }).toString();
    for (const h of badHeaders) {
      await check(
        `token headers ${JSON.stringify(h)}`,
        send(t.s.url, 'POST', '/oauth/token', { ...form, ...h }, 'a=b'),
      );
      await check(
        `authorize headers ${JSON.stringify(h).slice(0, 60)}`,
        send(t.s.url, 'GET', `/oauth/authorize?${authorizeQuery}`, h),
      );
      await check(
        `authorize POST headers`,
        send(t.s.url, 'POST', '/oauth/authorize', { ...form, ...h }, `${authorizeQuery}&csrf=x&decision=allow`),
      );
      await check(`register headers`, send(t.s.url, 'POST', '/oauth/register', { ...json, ...h }, '{}'));
    }
    for (const q of ['%ED%A0%80', '%FF', '%00', '%C0%AF', '%E0%A4%A', `${'%F0%9F%98%80'.repeat(400)}`]) {
      for (const param of ['client_id', 'redirect_uri', 'state', 'scope', 'resource', 'code_challenge'])
        await check(
          `authorize ${param}=${q.slice(0, 12)}`,
          send(t.s.url, 'GET', `/oauth/authorize?${authorizeQuery}&${param}=${q}`, { cookie: web.cookie }),
        );
      await check(`metadata ${q}`, send(t.s.url, 'GET', `/.well-known/oauth-authorization-server?x=${q}`, {}));
    }
    expect(findings).toEqual([]);
  });
});
