// Sessions, CSRF, fixation, cookie flags, isolation between accounts and sign-in throttling, over plain HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../support/clients.ts';
import { fakeVideoSource } from '../support/fake-video-source.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { newEmail, sessionClient } from './session-client.ts';
import { ensureAccount } from '../support/stores.ts';

describe('website sessions: security', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(
      { DAILY_FREE_CREDITS: '10', SIGN_IN_FREE_FAILURES: '3', SIGN_IN_MAX_PER_IP: '1000' },
      { youtube: fakeVideoSource() },
    );
  }, 120_000);
  afterAll(async () => {
    await s?.close();
  });

  it('sets an HttpOnly, SameSite=Lax session cookie, without Secure over plain http', async () => {
    const c = sessionClient(s.url);
    const r = await c.signUp(newEmail());
    expect(r.status).toBe(200);
    const [cookie] = r.setCookie;
    expect(cookie).toMatch(/^subtext_session=[\w-]{40,}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
    // The token is stored hashed: the cookie value appears nowhere in the database.
    const token = cookie!.split(';')[0]!.split('=')[1]!;
    const rows = await s.deps.sql`select 1 from sessions where token_hash = ${token} or csrf_token = ${token}`;
    expect(rows.length).toBe(0);
  });

  it('over https (x-forwarded-proto) the cookie is Secure with the __Host- prefix', async () => {
    const c = sessionClient(s.url);
    const email = newEmail();
    await c.signUp(email);
    const r = await c.signIn(email, undefined, { 'x-forwarded-proto': 'https' });
    expect(r.setCookie[0]).toMatch(
      /^__Host-subtext_session=[\w-]+; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax; Secure$/,
    );
  });

  it('refuses cookie-authenticated changes without the CSRF token, or with a wrong one', async () => {
    const c = sessionClient(s.url);
    await c.signUp(newEmail());
    const none = await c.call('mutation', 'keys.create', { name: 'x' });
    expect([none.status, none.code]).toEqual([403, 'FORBIDDEN']);
    const wrong = await c.call('mutation', 'keys.create', { name: 'x' }, { 'x-csrf-token': 'A'.repeat(43) });
    expect([wrong.status, wrong.code]).toEqual([403, 'FORBIDDEN']);
    const right = await c.mutate('keys.create', { name: 'x' });
    expect(right.status).toBe(200);
    // Service calls made with the cookie need it too, queries included (some spend credits).
    const credits = await c.call('query', 'credits.get', {});
    expect([credits.status, credits.code]).toEqual([403, 'FORBIDDEN']);
    const spend = await c.call('mutation', 'subtitles.get', { videoId: 'abcdefghijk' });
    expect([spend.status, spend.code]).toEqual([403, 'FORBIDDEN']);
    expect((await c.query('credits.get', {})).json.result.data.balance).toBe(10);
    // Sign-out is a change as well.
    expect((await c.call('mutation', 'account.signOut', {})).status).toBe(403);
  });

  it('refuses sign-in posted from another site (login CSRF)', async () => {
    const c = sessionClient(s.url);
    const email = newEmail();
    await c.signUp(email);
    const r = await c.signIn(email, undefined, { origin: 'https://evil.example' });
    expect([r.status, r.code]).toEqual([403, 'FORBIDDEN']);
    expect((await c.signIn(email, undefined, { origin: s.url })).status).toBe(200);
  });

  it('gives a new session id at sign-in: a planted or earlier cookie is never upgraded', async () => {
    const victim = sessionClient(s.url);
    const email = newEmail();
    await victim.signUp(email);
    const before = victim.cookie;
    await victim.mutate('account.signOut');
    expect(victim.cookie).toBe('');

    // An attacker plants a cookie (here: a session of their own) before the victim signs in.
    const attacker = sessionClient(s.url);
    await attacker.signUp(newEmail());
    const planted = attacker.cookie;
    victim.cookie = planted;
    const r = await victim.signIn(email);
    expect(r.status).toBe(200);
    expect(victim.cookie).not.toBe(planted);
    expect(victim.cookie).not.toBe(before);
    // The planted session is gone, and the old one after sign-out too.
    const probe = sessionClient(s.url);
    probe.cookie = planted;
    expect((await probe.call('query', 'account.me')).json.result.data).toBeNull();
    probe.cookie = before;
    expect((await probe.call('query', 'account.me')).json.result.data).toBeNull();
    expect((await victim.call('query', 'account.me')).json.result.data.account.email).toBe(email);
  });

  it("keeps each account's keys and usage to itself", async () => {
    const a = sessionClient(s.url);
    const b = sessionClient(s.url);
    await a.signUp(newEmail());
    await b.signUp(newEmail());
    const key = (await a.mutate('keys.create', { name: 'mine' })).json.result.data;
    expect((await b.query('keys.list')).json.result.data).toEqual([]);
    const revoke = await b.mutate('keys.revoke', { id: key.id });
    expect([revoke.status, revoke.code]).toEqual([404, 'NOT_FOUND']);
    expect((await rest(s.url, 'GET', '/credits', { key: key.key })).status).toBe(200);
    // A's spending does not show in B's usage.
    await rest(s.url, 'POST', '/subtitles', { key: key.key, body: { videoId: 'isolation01' } });
    expect((await a.query('usage.summary')).json.result.data.recent).toHaveLength(1);
    expect((await b.query('usage.summary')).json.result.data.recent).toHaveLength(0);
  });

  it('does not let an API key manage keys: sessions only', async () => {
    const { key } = await s.newKey();
    const r = await fetch(`${s.url}/trpc/keys.create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ name: 'minted' }),
    });
    expect(r.status).toBe(401);
    expect((await r.json()).error.data.code).toBe('UNAUTHENTICATED');
  });

  it('delays sign-in per email and address, even for the right password, and says the same for any failure', async () => {
    const c = sessionClient(s.url);
    const email = newEmail();
    await c.signUp(email);
    const fresh = sessionClient(s.url);
    const unknown = await fresh.signIn(newEmail(), 'whatever it is');
    const wrong = await fresh.signIn(email, 'not the password');
    expect([unknown.status, unknown.json.error.message]).toEqual([401, 'Wrong email or password']);
    expect([wrong.status, wrong.json.error.message]).toEqual([401, 'Wrong email or password']);
    await fresh.signIn(email, 'not the password');
    await fresh.signIn(email, 'not the password');
    const locked = await fresh.signIn(email);
    expect([locked.status, locked.code]).toEqual([429, 'RATE_LIMITED']);
    expect(locked.setCookie).toEqual([]);
  });

  it('throttles sign-in per client IP across emails', async () => {
    const t = await startTestServer({ SIGN_IN_MAX_PER_IP: '4' }, { youtube: fakeVideoSource() });
    try {
      const c = sessionClient(t.url);
      const codes = [];
      for (let i = 0; i < 5; i++) codes.push((await c.signIn(newEmail(), `guess number ${i}`)).status);
      expect(codes).toEqual([401, 401, 401, 401, 429]);
    } finally {
      await t.close();
    }
  });

  it('never lets sign-up claim an account created by the CLI (no password)', async () => {
    const email = newEmail();
    await ensureAccount(s.deps.sql, email);
    const c = sessionClient(s.url);
    const up = await c.signUp(email);
    expect([up.status, up.code]).toEqual([400, 'INVALID_REQUEST']);
    expect(up.setCookie).toEqual([]);
    const r = await c.signIn(email, 'anything at all');
    expect(r.status).toBe(401);
  });

  it('stores passwords with salted scrypt', async () => {
    const email = newEmail();
    await sessionClient(s.url).signUp(email, 'same password twice');
    const email2 = newEmail();
    await sessionClient(s.url).signUp(email2, 'same password twice');
    const rows = await s.deps.sql<
      { password_hash: string }[]
    >`select password_hash from accounts where email in (${email}, ${email2})`;
    expect(rows[0]!.password_hash).toMatch(/^scrypt\$15\$8\$3\$/);
    expect(rows[0]!.password_hash).not.toBe(rows[1]!.password_hash);
  });
});
