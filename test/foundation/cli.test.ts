// The operator CLI as an operator runs it: a child process against a database, checked through the service.
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/databases.ts';
import { rest } from '../support/clients.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let s: TestServer;
beforeAll(async () => {
  database = await createTestDatabase();
  s = await startTestServer({}, {}, { database });
});
afterAll(async () => {
  await s?.close();
  await database?.drop();
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npx tsx src/cli.ts ...args`, as one node process with tsx's loader (the wrapper would double the startup cost). */
function cli(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli.ts', ...args],
      { env: { PATH: process.env.PATH, DATABASE_URL: database.url }, timeout: 20_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const lastLine = (text: string) => text.trimEnd().split('\n').at(-1) ?? '';

describe('cli', () => {
  it('keys create prints the key alone on the last stdout line, and it works against the service', async () => {
    const r = await cli('keys', 'create', '--email', 'Ops@Example.com', '--name', 'laptop');
    expect(r.code, r.stderr).toBe(0);
    const key = lastLine(r.stdout);
    expect(key).toMatch(/^sk_[A-Za-z0-9]{32}$/);
    expect(r.stderr).toMatch(/shown once/);
    expect(r.stderr).not.toContain(key);
    const res = await rest(s.url, 'GET', '/credits', { key });
    expect(res.status).toBe(200);
  });

  it('keys list, credits grant, accounts list and keys revoke', async () => {
    const email = 'lifecycle@example.com';
    const created = await cli('keys', 'create', '--email', email, '--name', 'ci', '--rate-limit', '5', '--expires', '30d');
    expect(created.code, created.stderr).toBe(0);
    const key = lastLine(created.stdout);
    const keyId = /\b(key_[0-9a-z]+)\b/.exec(created.stderr)?.[1];
    expect(keyId).toBeDefined();

    const [list, grant, accounts] = await Promise.all([
      cli('keys', 'list', '--email', email),
      cli('credits', 'grant', '--email', email, '--amount', '25'),
      cli('accounts', 'list'),
    ]);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(keyId);
    expect(list.stdout).toContain(key.slice(0, 11)); // the display prefix...
    expect(list.stdout).not.toContain(key); // ...never the key
    expect(list.stdout).toContain('active');
    expect(grant.code, grant.stderr).toBe(0);
    expect(accounts.code, accounts.stderr).toBe(0);
    expect(accounts.stdout).toContain(email);

    const credits = await rest(s.url, 'GET', '/credits', { key });
    expect(credits.json).toMatchObject({ purchasedBalance: 25 });
    expect(credits.headers.get('ratelimit-limit')).toBe('5');

    const revoked = await cli('keys', 'revoke', '--email', email, '--id', keyId!);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect((await rest(s.url, 'GET', '/credits', { key })).status).toBe(401);
    const [row] = await s.deps.sql`select revoked_at from api_keys where id = ${keyId!}`;
    expect(row!.revoked_at).toBeInstanceOf(Date);
  });

  it('bad arguments exit 2 with a clear message and the usage text, and change nothing', async () => {
    const cases: [string[], RegExp][] = [
      [[], /No command given/],
      [['keys', 'frobnicate'], /Unknown command: keys frobnicate/],
      [['keys', 'create', '--name', 'x'], /--email is required/],
      [['keys', 'create', '--email', 'x@example.com', '--rate-limit', '0'], /--rate-limit must be a positive integer/],
      [['keys', 'create', '--email', 'x@example.com', '--bogus'], /Unknown option '--bogus'/],
      // A mistyped email is an error, not a new account holding the grant.
      [['credits', 'grant', '--email', 'typo@example.com', '--amount', '5'], /No account typo@example.com/],
    ];
    // A few at a time: each run is a node process compiling TypeScript, on a 2-core machine.
    const runs: Run[] = [];
    for (let i = 0; i < cases.length; i += 3) runs.push(...(await Promise.all(cases.slice(i, i + 3).map(([args]) => cli(...args)))));
    runs.forEach((r, i) => {
      const [args, message] = cases[i]!;
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
      expect(r.stderr, args.join(' ')).toContain('Usage: npm run cli --');
      expect(r.stdout, args.join(' ')).toBe('');
    });
    const made = await s.deps.sql`select email from accounts where email in ('x@example.com', 'typo@example.com')`;
    expect(made).toEqual([]);
  });
});
