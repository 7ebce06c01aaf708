// Sign-in throttling per (email, client address): an attacker's failures slow that attacker, never the owner.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeVideoSource } from '../support/fake-video-source.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { newEmail, sessionClient } from './session-client.ts';

describe('sign-in delays', () => {
  let s: TestServer;
  let now = Date.parse('2026-03-02T10:00:00Z');
  const clock = { now: () => now };
  beforeAll(async () => {
    s = await startTestServer(
      { TRUST_PROXY: 'true', SIGN_IN_FREE_FAILURES: '3', SIGN_IN_EMAIL_CEILING: '6', SIGN_IN_MAX_PER_IP: '1000' },
      { youtube: fakeVideoSource(), clock },
    );
  }, 120_000);
  afterAll(async () => {
    await s?.close();
  });

  const from = (address: string) => ({ 'x-forwarded-for': address });
  const owned = async () => {
    const email = newEmail();
    expect((await sessionClient(s.url).signUp(email, 'the owner password')).status).toBe(200);
    return email;
  };

  it("many failures from an attacker's address do not stop the owner signing in from another", async () => {
    const email = await owned();
    const attacker = sessionClient(s.url);
    for (let i = 0; i < 12; i++) await attacker.signIn(email, `guess ${i}`, from('203.0.113.9'));
    const owner = await sessionClient(s.url).signIn(email, 'the owner password', from('198.51.100.7'));
    expect(owner.status).toBe(200);
    expect(owner.setCookie.length).toBe(1);
  }, 60_000);

  it("the attacker's own delay grows, with a Retry-After and a grammatical message", async () => {
    const email = await owned();
    const attacker = sessionClient(s.url);
    const guess = () => attacker.signIn(email, 'a wrong guess', from('203.0.113.10'));
    for (let i = 0; i < 3; i++) expect((await guess()).status).toBe(401);
    const first = await guess();
    expect([first.status, first.code]).toEqual([429, 'RATE_LIMITED']);
    expect(first.json.error.message).toBe(
      'Too many failed sign-ins for this email from your address; try again in 1 minute',
    );
    // Waiting it out buys one more guess, then twice the wait.
    now += 61_000;
    expect((await guess()).status).toBe(401);
    const second = await guess();
    expect(second.status).toBe(429);
    expect(second.json.error.message).toMatch(/try again in 2 minutes$/);
    now += 121_000;
    expect((await guess()).status).toBe(401);
    expect((await guess()).json.error.message).toMatch(/try again in 4 minutes$/);
    // Even the right password waits while the address is delayed; after the wait it signs in and clears the count.
    now += 241_000;
    expect((await attacker.signIn(email, 'the owner password', from('203.0.113.10'))).status).toBe(200);
    expect((await guess()).status).toBe(401);
  }, 60_000);

  it('the Retry-After header says the same wait over REST-like HTTP', async () => {
    const email = await owned();
    const post = () =>
      fetch(`${s.url}/trpc/account.signIn`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...from('203.0.113.11') },
        body: JSON.stringify({ email, password: 'wrong again' }),
      });
    for (let i = 0; i < 3; i++) await post();
    const r = await post();
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('60');
  });

  it('past the per-email ceiling, every failing address is delayed at once, but a clean address still signs in', async () => {
    const email = await owned();
    // 6 addresses, one guess each: under the per-address threshold, but together at the email's ceiling.
    for (let i = 0; i < 6; i++) await sessionClient(s.url).signIn(email, 'spread guess', from(`192.0.2.${i + 1}`));
    const spread = sessionClient(s.url);
    expect((await spread.signIn(email, 'spread guess', from('192.0.2.100'))).status).toBe(401);
    expect((await spread.signIn(email, 'spread guess', from('192.0.2.100'))).status).toBe(429);
    const owner = await sessionClient(s.url).signIn(email, 'the owner password', from('198.51.100.8'));
    expect(owner.status).toBe(200);
  }, 60_000);
});
