// Hole: sign-in and sign-up throttles are keyed on the whole client address. An IPv6 client holds a /64 (2^64
// addresses), so rotating the low 64 bits gives every guess a clean address: the per-(email, address) delays and the
// per-address attempt limit never engage. Throttling must judge an IPv6 client by its /64.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeVideoSource } from '../support/fake-video-source.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { newEmail, sessionClient } from '../web/session-client.ts';

describe('sign-in throttles judge an IPv6 client by its /64', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(
      { TRUST_PROXY: 'true', SIGN_IN_FREE_FAILURES: '3', SIGN_IN_EMAIL_CEILING: '1000', SIGN_IN_MAX_PER_IP: '8' },
      { youtube: fakeVideoSource() },
    );
  }, 120_000);
  afterAll(async () => {
    await s?.close();
  });

  const from = (address: string) => ({ 'x-forwarded-for': address });

  it('guesses at one email from fresh addresses of one /64 are delayed like guesses from one address', async () => {
    const email = newEmail();
    expect((await sessionClient(s.url).signUp(email, 'the owner password')).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++)
      statuses.push((await sessionClient(s.url).signIn(email, `guess ${i}`, from(`2001:db8:7:7::${i}`))).status);
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses.slice(3)).toEqual([429, 429, 429]);
    // The owner elsewhere is not slowed.
    expect((await sessionClient(s.url).signIn(email, 'the owner password', from('2001:db8:9:9::1'))).status).toBe(200);
  }, 180_000);

  it('a port in the forwarded address (some proxies append one) does not make a new address', async () => {
    const email = newEmail();
    expect((await sessionClient(s.url).signUp(email, 'the owner password')).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 1; i <= 5; i++)
      statuses.push((await sessionClient(s.url).signIn(email, `guess ${i}`, from(`203.0.113.50:${1000 + i}`))).status);
    for (let i = 1; i <= 2; i++)
      statuses.push(
        (await sessionClient(s.url).signIn(email, `guess ${i}`, from(`[2001:db8:5:5::${i}]:${2000 + i}`))).status,
      );
    expect(statuses).toEqual([401, 401, 401, 429, 429, 401, 401]);
  }, 180_000);

  it('the per-address attempt limit counts a /64 as one address', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 12; i++)
      statuses.push((await sessionClient(s.url).signIn(newEmail(), 'a guess', from(`2001:db8:8:8:${i}::1`))).status);
    expect(statuses.filter((x) => x === 429).length).toBeGreaterThan(0);
  }, 180_000);
});
