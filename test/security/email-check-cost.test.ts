// Finding 1 of issue 23: the email check must bound the input's length before any pattern runs, on every way in
// (tRPC sign-in and sign-up, the CLI's account creation). Measured by what the patterns are handed, not by time:
// a spy on RegExp records the longest string an address pattern (one with an @ in it) was run on while the hostile
// input is checked. zod's own length check scans for surrogates with a one-character class, which is linear.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Credentials, SignInInput } from '../../src/domain/accounts/credentials.ts';
import { ensureAccount } from '../../src/domain/keys/manage-keys.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

// The attack string from the review: a.a.a.… after an @, ending in a second @, 62 KiB long.
const HOSTILE = `a@${'a.'.repeat(31 * 1024)}@`;

/** The longest string an address pattern was run on (test, or exec, which match/replace/split use) while `fn` ran. */
async function longestPatternInput(fn: () => unknown): Promise<number> {
  let longest = 0;
  const exec = RegExp.prototype.exec;
  const test = RegExp.prototype.test;
  const spyExec = vi.spyOn(RegExp.prototype, 'exec').mockImplementation(function (this: RegExp, s: string) {
    if (this.source.includes('@')) longest = Math.max(longest, String(s).length);
    return exec.call(this, s);
  });
  const spyTest = vi.spyOn(RegExp.prototype, 'test').mockImplementation(function (this: RegExp, s: string) {
    if (this.source.includes('@')) longest = Math.max(longest, String(s).length);
    return test.call(this, s);
  });
  try {
    await fn();
  } finally {
    spyExec.mockRestore();
    spyTest.mockRestore();
  }
  return longest;
}

describe('the email check is bounded before its pattern runs', () => {
  afterEach(() => vi.restoreAllMocks());

  it('sign-in and sign-up refuse a 62 KiB hostile email without running a pattern on it', async () => {
    for (const schema of [SignInInput, Credentials]) {
      let ok = true;
      const longest = await longestPatternInput(() => {
        ok = schema.safeParse({ email: HOSTILE, password: 'correct horse battery' }).success;
      });
      expect(ok).toBe(false);
      expect(longest).toBeLessThanOrEqual(254);
    }
  });

  it("the CLI's ensureAccount refuses it the same way", async () => {
    const accounts = { ensure: vi.fn(), findByEmail: vi.fn() };
    let error: unknown;
    const longest = await longestPatternInput(() =>
      ensureAccount({ accounts } as never, HOSTILE).catch((e: unknown) => (error = e)),
    );
    expect((error as { code?: string }).code).toBe('INVALID_REQUEST');
    expect(accounts.ensure).not.toHaveBeenCalled();
    expect(longest).toBeLessThanOrEqual(254);
  });

  it('ordinary addresses still pass and near misses still fail', () => {
    for (const good of ['a@b.co', ' Someone@Example.COM ', 'x.y+z@mail.example.org'])
      expect(SignInInput.safeParse({ email: good, password: 'p' }).success).toBe(true);
    for (const bad of ['a@b', 'a b@c.d', 'a@@b.c', '@b.c', 'a@.c', 'a@b.', `${'a'.repeat(250)}@b.co`])
      expect(SignInInput.safeParse({ email: bad, password: 'p' }).success).toBe(false);
  });
});

describe('POST /trpc/account.signIn with a 62 KiB hostile email', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('answers 400 without running a pattern on the email, and /healthz answers alongside', async () => {
    let status = 0;
    let code: unknown;
    let health = 0;
    const longest = await longestPatternInput(async () => {
      const hostile = Array.from({ length: 2 }, () =>
        fetch(`${s.url}/trpc/account.signIn`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: HOSTILE, password: 'whatever' }),
        }).then(async (r) => {
          status = r.status;
          code = ((await r.json()) as { error?: { data?: { code?: string } } }).error?.data?.code;
        }),
      );
      const healthz = fetch(`${s.url}/healthz`).then((r) => (health = r.status));
      await Promise.all([...hostile, healthz]);
    });
    expect(status).toBe(400);
    expect(code).toBe('INVALID_REQUEST');
    expect(health).toBe(200);
    expect(longest).toBeLessThanOrEqual(254);
  });
});
