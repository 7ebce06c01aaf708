// SIGN_UP=open|closed|invite and the waiting period before a self-made account gets the daily free allowance,
// through the website's tRPC calls over HTTP and the operator CLI.
import { execFile } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/databases.ts';
import { fakeVideoSource } from '../support/fake-video-source.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { newEmail, sessionClient } from './session-client.ts';

const PASSWORD = 'a long enough password';
const signUp = (url: string, email: string, inviteCode?: string) =>
  sessionClient(url).call('mutation', 'account.signUp', { email, password: PASSWORD, inviteCode });

describe('sign-up modes', { timeout: 120_000 }, () => {
  const servers: TestServer[] = [];
  const start = async (env: Record<string, string>, database?: Awaited<ReturnType<typeof createTestDatabase>>) => {
    const s = await startTestServer(env, { youtube: fakeVideoSource() }, database ? { database } : {});
    servers.push(s);
    return s;
  };
  afterAll(async () => {
    for (const s of servers) await s.close();
  });

  it('open (the default) lets anyone sign up with the daily allowance at once', async () => {
    const s = await start({ DAILY_FREE_CREDITS: '10' });
    const c = sessionClient(s.url);
    expect((await c.call('query', 'account.signUpMode', {})).json.result.data).toEqual({ mode: 'open' });
    expect((await c.signUp(newEmail())).status).toBe(200);
    expect((await c.query('credits.get', {})).json.result.data.balance).toBe(10);
  });

  it('NEW_ACCOUNT_FREE_DELAY_DAYS: a signed-up account waits for the allowance; an operator-made one does not', async () => {
    const s = await start({ DAILY_FREE_CREDITS: '10', NEW_ACCOUNT_FREE_DELAY_DAYS: '3' });
    const c = sessionClient(s.url);
    expect((await c.signUp(newEmail())).status).toBe(200);
    const credits = (await c.query('credits.get', {})).json.result.data;
    expect([credits.balance, credits.freeRemaining]).toEqual([0, 0]);
    const spend = await c.mutate('subtitles.get', { videoId: 'dQw4w9WgXcQ' });
    expect([spend.status, spend.code]).toEqual([402, 'INSUFFICIENT_CREDITS']);
    const { key } = await s.newKey();
    const res = await fetch(`${s.url}/api/v1/credits`, { headers: { authorization: `Bearer ${key}` } });
    expect((await res.json()).balance).toBe(10);
  });

  it('closed refuses every sign-up with 403 FORBIDDEN and says why', async () => {
    const s = await start({ SIGN_UP: 'closed' });
    const email = newEmail();
    const r = await signUp(s.url, email);
    expect([r.status, r.code]).toEqual([403, 'FORBIDDEN']);
    expect(r.json.error.message).toBe('Sign-up is closed on this server; ask its operator for an account.');
    expect(r.setCookie).toEqual([]);
    expect(await s.deps.sql`select 1 from accounts where email = ${email}`).toHaveLength(0);
    expect((await sessionClient(s.url).call('query', 'account.signUpMode', {})).json.result.data).toEqual({
      mode: 'closed',
    });
  });

  it('invite needs a single-use code the operator made with the CLI, stored hashed', async () => {
    const database = await createTestDatabase();
    const s = await start({ SIGN_UP: 'invite' }, database);
    const none = await signUp(s.url, newEmail());
    expect([none.status, none.code]).toEqual([403, 'FORBIDDEN']);
    expect(none.json.error.message).toMatch(/^Sign-up on this server needs an invite code/);
    const bogus = await signUp(s.url, newEmail(), 'inv_not-a-real-code');
    expect([bogus.status, bogus.json.error.message]).toEqual([403, none.json.error.message]);

    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        ['bin/cli.js', 'invites', 'create'],
        { env: { PATH: process.env.PATH, DATABASE_URL: database.url }, timeout: 60_000 },
        (err, stdout, stderr) => resolve({ code: err ? 1 : 0, stdout, stderr }),
      ),
    );
    expect(run.code, run.stderr).toBe(0);
    const code = run.stdout.trimEnd().split('\n').at(-1)!;
    expect(code).toMatch(/^inv_[\w-]{32,}$/);
    expect(await s.deps.sql`select 1 from sign_up_invites where code_hash = ${code}`).toHaveLength(0);

    const used = await signUp(s.url, newEmail(), code);
    expect(used.status).toBe(200);
    const again = await signUp(s.url, newEmail(), code);
    expect([again.status, again.code]).toEqual([403, 'FORBIDDEN']);
  });

  it('an invite is not spent by a sign-up that fails for another reason', async () => {
    const database = await createTestDatabase();
    const s = await start({ SIGN_UP: 'invite' }, database);
    const email = newEmail();
    await s.newKey(); // an account made by the operator, without a password
    const [row] = await s.deps.sql<{ email: string }[]>`select email from accounts limit 1`;
    const run = await new Promise<string>((resolve) =>
      execFile(
        process.execPath,
        ['bin/cli.js', 'invites', 'create'],
        { env: { PATH: process.env.PATH, DATABASE_URL: database.url }, timeout: 60_000 },
        (_e, stdout) => resolve(stdout.trimEnd().split('\n').at(-1)!),
      ),
    );
    const taken = await signUp(s.url, row!.email, run);
    expect([taken.status, taken.code]).toEqual([400, 'INVALID_REQUEST']);
    expect((await signUp(s.url, email, run)).status).toBe(200);
  });
});
