// The operator CLI as an operator runs it: a child process against a database, checked through the service.
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArticleDraft } from '../../src/domain/articles/schemas.ts';
import { createTestDatabase } from '../support/databases.ts';
import { rest } from '../support/clients.ts';
import { startFakeTypesense } from '../support/fake-typesense.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { storeArticle } from '../support/stores.ts';

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

/** `node bin/cli.js ...args`: what `npm run cli --` runs (the Node version check, then src/cli.ts in the same process). */
function cli(...args: string[]): Promise<Run> {
  return cliWith({}, ...args);
}

function cliWith(env: Record<string, string>, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/cli.js', ...args],
      { env: { PATH: process.env.PATH, DATABASE_URL: database.url, ...env }, timeout: 60_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const lastLine = (text: string) => text.trimEnd().split('\n').at(-1) ?? '';

describe('cli', { timeout: 120_000 }, () => {
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
    const created = await cli(
      'keys',
      'create',
      '--email',
      email,
      '--name',
      'ci',
      '--rate-limit',
      '5',
      '--expires',
      '30d',
    );
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

  it('--help and -h describe the CLI and a command, with examples, on stdout', async () => {
    // Every command's help text is checked in src/cli/help.test.ts; here, that the flags reach it as a user types them.
    const [all, short, command, group] = await Promise.all([
      cli('--help'),
      cli('-h'),
      cli('keys', 'create', '-h'),
      cli('keys', '--help'),
    ]);
    for (const r of [all, short]) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('Usage: npm run cli -- <command> [options]');
      expect(r.stdout).toMatch(/^ {2}keys create {2,}Create an API key/m);
      expect(r.stdout).toContain(
        'KEY=$(npm run -s cli -- keys create --email you@example.com --name laptop | tail -1)',
      );
    }
    expect(command.code, command.stderr).toBe(0);
    expect(command.stdout).toContain('Usage: npm run cli -- keys create --email <email>');
    expect(command.stdout).toMatch(/Examples:\n {2}KEY=\$\(npm run -s cli -- keys create/);
    expect(group.stdout).toContain('Usage: npm run cli -- keys <command>');
  }, 120_000);

  it('lists print as aligned plain text, and as JSON with --json', async () => {
    const email = 'lists@example.com';
    const created = await cli('keys', 'create', '--email', email, '--name', 'table test');
    expect(created.code, created.stderr).toBe(0);
    const [table, json, accounts] = await Promise.all([
      cli('keys', 'list', '--email', email),
      cli('keys', 'list', '--email', email, '--json'),
      cli('accounts', 'list', '--json'),
    ]);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID +NAME +PREFIX +STATUS +CREATED +LAST USED +EXPIRES$/);
    expect(lines[1]).toMatch(/^key_\w+ +table test +sk_\w{8} +active +\d{4}-\d\d-\d\d \d\d:\d\d +- +-$/);
    expect(lines[1]!.indexOf('table test')).toBe(lines[0]!.indexOf('NAME')); // aligned
    expect(table.stdout).not.toMatch(/[│┌└]/); // not console.table
    const keys = JSON.parse(json.stdout) as Array<{ id: string; status: string; name: string }>;
    expect(keys).toEqual([
      expect.objectContaining({ name: 'table test', status: 'active', id: expect.stringMatching(/^key_/) }),
    ]);
    expect(JSON.parse(accounts.stdout)).toContainEqual(expect.objectContaining({ email, purchasedBalance: 0 }));
  }, 120_000);

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
    for (let i = 0; i < cases.length; i += 3)
      runs.push(...(await Promise.all(cases.slice(i, i + 3).map(([args]) => cli(...args)))));
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

describe('cli search reindex', { timeout: 120_000 }, () => {
  const TS_KEY = 'ts-cli-key';
  const N = 260;
  const draft = (i: number): ArticleDraft => ({
    videoId: `reidx${String(i).padStart(6, '0')}`,
    lang: 'en',
    length: 'medium',
    sourceLang: 'en',
    title: `Reindexed article ${i}`,
    summary: `Summary ${i} about sourdough`,
    sections: [{ heading: 'Start', start: 0, end: 30, text: `section text ${i}` }],
    keyPoints: ['k'],
    tags: ['baking'],
    category: 'food',
    generator: { kind: 'extractive' },
  });
  let ids: string[] = [];
  beforeAll(async () => {
    const stored = [];
    for (let i = 0; i < N; i += 20)
      stored.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(20, N - i) }, (_, k) => storeArticle(s.deps.sql, draft(i + k))),
        )),
      );
    ids = stored.map((a) => a.id);
  });

  it('upserts every stored article into Typesense in bounded batches, and again idempotently', async () => {
    const ts = await startFakeTypesense(TS_KEY);
    try {
      const env = { SEARCH_BACKEND: 'typesense', TYPESENSE_URL: ts.url, TYPESENSE_API_KEY: TS_KEY };
      const r = await cliWith(env, 'search', 'reindex', '--batch-size', '40');
      expect(r.code, r.stderr).toBe(0);
      expect(lastLine(r.stdout)).toBe(`Indexed ${N} of ${N} articles; 0 failed.`);
      expect(r.stderr).not.toContain(TS_KEY);

      const docs = ts.collections.get('articles')!.docs;
      expect([...docs.keys()].sort()).toEqual([...ids].sort());
      expect(docs.get(ids[7]!)).toMatchObject({
        id: ids[7],
        title: expect.stringMatching(/^Reindexed article \d+$/),
        category: 'food',
        lang: 'en',
      });
      const imports = ts.requests.filter((q) => q.path === '/collections/articles/documents/import');
      expect(imports.every((q) => q.method === 'POST' && q.query.get('action') === 'upsert')).toBe(true);
      const sizes = imports.map((q) => q.body.split('\n').filter(Boolean).length);
      expect(sizes).toEqual([...Array.from({ length: Math.floor(N / 40) }, () => 40), N % 40]);
      expect(ts.requests.every((q) => q.headers['x-typesense-api-key'] === TS_KEY)).toBe(true);

      // A second run replaces, never duplicates or refuses (action=upsert); the default batch is 100.
      ts.requests.length = 0;
      const again = await cliWith(env, 'search', 'reindex');
      expect(again.code, again.stderr).toBe(0);
      expect(docs.size).toBe(N);
      expect(
        ts.requests.filter((q) => q.path.endsWith('/import')).map((q) => q.body.split('\n').filter(Boolean).length),
      ).toEqual([100, 100, N - 200]);
    } finally {
      await ts.close();
    }
  });

  it('reports documents Typesense refused and exits 1; the others are indexed', async () => {
    const ts = await startFakeTypesense(TS_KEY);
    try {
      ts.rejectIds.add(ids[3]!).add(ids[200]!);
      const r = await cliWith(
        { SEARCH_BACKEND: 'typesense', TYPESENSE_URL: ts.url, TYPESENSE_API_KEY: TS_KEY },
        'search',
        'reindex',
      );
      expect(r.code).toBe(1);
      expect(lastLine(r.stdout)).toBe(`Indexed ${N - 2} of ${N} articles; 2 failed.`);
      expect(r.stderr).toContain(`failed ${ids[3]}: Field \`created_at\` must be an int64.`);
      expect(r.stderr).toContain(`failed ${ids[200]}`);
      expect(ts.collections.get('articles')!.docs.size).toBe(N - 2);
    } finally {
      await ts.close();
    }
  });

  it('a request Typesense refuses (wrong key) stops the run with exit 1 and says how far it got', async () => {
    const ts = await startFakeTypesense(TS_KEY);
    try {
      const r = await cliWith(
        { SEARCH_BACKEND: 'typesense', TYPESENSE_URL: ts.url, TYPESENSE_API_KEY: 'wrong-key' },
        'search',
        'reindex',
      );
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /Reindex stopped after 0 of 260 articles were indexed: Could not index 100 articles \(\w+ 401\)/,
      );
      expect(r.stderr).not.toContain('wrong-key');
    } finally {
      await ts.close();
    }
  });

  it('exits 2 with a clear message for the Postgres backend, incomplete Typesense config and a bad batch size', async () => {
    const cases: [Record<string, string>, string[], RegExp][] = [
      [{}, [], /SEARCH_BACKEND is postgres, whose index is the articles table itself.*nothing to rebuild/],
      [
        { SEARCH_BACKEND: 'typesense', TYPESENSE_URL: 'http://127.0.0.1:9' },
        [],
        /typesense needs TYPESENSE_URL and TYPESENSE_API_KEY/,
      ],
      [
        { SEARCH_BACKEND: 'typesense', TYPESENSE_URL: 'http://127.0.0.1:9', TYPESENSE_API_KEY: 'k' },
        ['--batch-size', '0'],
        /--batch-size must be an integer/,
      ],
    ];
    const runs = await Promise.all(cases.map(([env, args]) => cliWith(env, 'search', 'reindex', ...args)));
    runs.forEach((r, i) => {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(cases[i]![2]);
      expect(r.stdout).toBe('');
    });
  });
});
