// Review attacks on sign-up and sign-in: hostile emails, variants of an existing email, concurrent sign-ups of one
// email or one invite, a burst of wrong passwords against the per-(email, address) delay, and SIGN_UP=closed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInvite } from '../../src/domain/accounts/sign-up.ts';
import { fakeVideoSource } from '../support/fake-video-source.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { newEmail, sessionClient } from '../web/session-client.ts';

const PASSWORD = 'a long enough password';
const from = (address: string) => ({ 'x-forwarded-for': address });

describe('sign-up and sign-in under hostile input', { timeout: 120_000 }, () => {
  const servers: TestServer[] = [];
  let s: TestServer;
  const start = async (env: Record<string, string>) => {
    const server = await startTestServer(
      {
        TRUST_PROXY: 'true',
        SIGN_IN_FREE_FAILURES: '3',
        SIGN_IN_EMAIL_CEILING: '50',
        SIGN_IN_MAX_PER_IP: '1000',
        ...env,
      },
      { youtube: fakeVideoSource() },
    );
    servers.push(server);
    return server;
  };
  beforeAll(async () => {
    s = await start({});
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
  });
  const accountsWith = async (email: string) =>
    (await s.deps.sql<{ n: number }[]>`select count(*)::int as n from accounts where email = ${email}`)[0]!.n;

  it('refuses hostile emails with 400, never a server error, and stores nothing', async () => {
    const base = newEmail();
    const hostile = [
      `${'a'.repeat(5_000)}@example.com`,
      'a@b@example.com',
      '@@@@@@@@@@',
      `a\u0000b@example.com`,
      `ab@exa\u0000mple.com`,
      'a b@example.com',
      `a@${'x.'.repeat(200)}com`,
      '\u00a0@example.com',
      `${base}\u0000`,
    ];
    for (const email of hostile) {
      for (const path of ['account.signUp', 'account.signIn'] as const) {
        const r = await sessionClient(s.url).call('mutation', path, { email, password: PASSWORD });
        expect([r.status, r.code], `${path} ${JSON.stringify(email.slice(0, 40))}`).toEqual([400, 'INVALID_REQUEST']);
      }
    }
    // A body past the limit is refused before parsing.
    const huge = await sessionClient(s.url).signUp(`${'a'.repeat(1_000_000)}@example.com`);
    expect([huge.status, huge.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    const rows = await s.deps.sql`select 1 from accounts where email like '%@%@%' or length(email) > 254`;
    expect(rows).toHaveLength(0);
  });

  it('case and whitespace variants of an existing email are the same account: refused at sign-up, signed in', async () => {
    const email = newEmail();
    expect((await sessionClient(s.url).signUp(email)).status).toBe(200);
    for (const variant of [email.toUpperCase(), `  ${email}\t`, `\n${email.replace('sec', 'SEC')} `]) {
      const up = await sessionClient(s.url).signUp(variant, 'another long password');
      expect([up.status, up.code]).toEqual([400, 'INVALID_REQUEST']);
      const c = sessionClient(s.url);
      const r = await c.signIn(variant, PASSWORD, from('198.51.100.20'));
      expect(r.status).toBe(200);
      expect(r.json.result.data.account.email).toBe(email);
    }
    expect(await accountsWith(email)).toBe(1);
  });

  it('unicode that lower-cases onto an existing email (Kelvin sign K) is that account, not a second one', async () => {
    const email = `k${newEmail()}`;
    expect((await sessionClient(s.url).signUp(email)).status).toBe(200);
    const twin = `\u212a${email.slice(1)}`;
    const up = await sessionClient(s.url).signUp(twin, 'another long password');
    expect([up.status, up.code]).toEqual([400, 'INVALID_REQUEST']);
    expect(await accountsWith(email)).toBe(1);
  });

  it('concurrent sign-ups of one email make exactly one account', async () => {
    const email = newEmail();
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        sessionClient(s.url).call('mutation', 'account.signUp', {
          email: i % 2 ? email.toUpperCase() : email,
          password: `${PASSWORD} ${i}`,
        }),
      ),
    );
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) expect(r.code).toBe('INVALID_REQUEST');
    expect(await accountsWith(email)).toBe(1);
  });

  it('a concurrent burst of wrong passwords from one address gets no more than the free failures', async () => {
    const email = newEmail();
    expect((await sessionClient(s.url).signUp(email, 'the owner password')).status).toBe(200);
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        sessionClient(s.url).signIn(i % 2 ? ` ${email.toUpperCase()}` : email, `guess ${i}`, from('203.0.113.50')),
      ),
    );
    const checked = burst.filter((r) => r.status === 401);
    expect(checked.length).toBeLessThanOrEqual(3);
    expect(burst.filter((r) => r.status === 429)).toHaveLength(20 - checked.length);
    // Even the right password waits at that address; the owner from another address is let in.
    expect((await sessionClient(s.url).signIn(email, 'the owner password', from('203.0.113.50'))).status).toBe(429);
    const owner = await sessionClient(s.url).signIn(email, 'the owner password', from('198.51.100.51'));
    expect(owner.status).toBe(200);
  });

  it('one invite used by concurrent sign-ups makes exactly one account', async () => {
    const inv = await start({ SIGN_UP: 'invite' });
    const code = await createInvite(inv.deps);
    const emails = Array.from({ length: 8 }, () => newEmail());
    const results = await Promise.all(
      emails.map((email) =>
        sessionClient(inv.url).call('mutation', 'account.signUp', { email, password: PASSWORD, inviteCode: code }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) expect([r.status, r.code]).toEqual([403, 'FORBIDDEN']);
    const made = await inv.deps.sql`select 1 from accounts where email in ${inv.deps.sql(emails)}`;
    expect(made).toHaveLength(1);
  });

  it('SIGN_UP=closed refuses on every way in: tRPC single, batched, GET, and the website page', async () => {
    const closed = await start({ SIGN_UP: 'closed' });
    const email = newEmail();
    const single = await sessionClient(closed.url).signUp(email);
    expect([single.status, single.code]).toEqual([403, 'FORBIDDEN']);
    const batched = await fetch(`${closed.url}/trpc/account.signUp,account.signUp?batch=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ 0: { email, password: PASSWORD }, 1: { email: newEmail(), password: PASSWORD } }),
    });
    expect(batched.status).not.toBe(200);
    const viaGet = await fetch(
      `${closed.url}/trpc/account.signUp?input=${encodeURIComponent(JSON.stringify({ email, password: PASSWORD }))}`,
    );
    expect(viaGet.ok).toBe(false);
    for (const path of ['/sign-up', '/signup', '/api/v1/account/sign-up', '/api/v1/accounts']) {
      const form = await fetch(`${closed.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email, password: PASSWORD }).toString(),
      });
      expect(form.status, path).not.toBe(200);
    }
    expect(await closed.deps.sql`select 1 from accounts`).toHaveLength(0);
  });
});
