import { parseArgs } from 'node:util';
import { connect, migrateDatabase } from '../db/client.ts';
import { parseConfig } from './config.ts';
import { grantCredits } from './domain/credits/credits.ts';
import { isServiceError } from './domain/errors.ts';
import { createApiKey, ensureAccount, findAccount, listApiKeys, revokeApiKey } from './domain/keys/manage-keys.ts';
import { startEmbeddedPostgres } from './infra/database/embedded-postgres.ts';
import { Credentials } from './domain/accounts/credentials.ts';
import { hashPassword } from './domain/accounts/password.ts';
import { setPassword } from './domain/accounts/sign-in.ts';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const USAGE = `Usage: npm run cli -- <command>
  keys create --email <email> [--name <name>] [--expires <ISO date | 30d>] [--rate-limit <n>]
  keys list --email <email>
  keys revoke --email <email> --id <key id>
  credits grant --email <email> --amount <n>
  accounts list
  accounts set-password --email <email>   (reads the password from stdin, e.g. a pipe; it never goes in argv)`;

class UsageError extends Error {}

function need(values: Record<string, unknown>, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || !v) throw new UsageError(`--${name} is required`);
  return v;
}

function parseExpiry(s: string | undefined): Date | null {
  if (!s) return null;
  const rel = /^(\d+)d$/.exec(s);
  const d = rel ? new Date(Date.now() + Number(rel[1]) * 86_400_000) : new Date(s);
  if (Number.isNaN(d.getTime())) throw new UsageError(`--expires: not a date or "<n>d": ${s}`);
  return d;
}

/** An existing account: only `keys create` makes one, so a mistyped email is an error rather than a new account. */
async function existingAccount(sql: Parameters<typeof findAccount>[0], email: string) {
  const account = await findAccount(sql, email);
  if (!account) throw new UsageError(`No account ${email} (accounts are created by "keys create")`);
  return account;
}

async function main(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      expires: { type: 'string' },
      'rate-limit': { type: 'string' },
      id: { type: 'string' },
      amount: { type: 'string' },
    },
  });
  const command = positionals.join(' ');
  const known = ['keys create', 'keys list', 'keys revoke', 'credits grant', 'accounts list', 'accounts set-password'];
  if (!known.includes(command)) throw new UsageError(command ? `Unknown command: ${command}` : 'No command given');

  const config = parseConfig(process.env);
  const embedded = config.DATABASE_URL ? null : await startEmbeddedPostgres(config.DATA_DIR);
  const url = config.DATABASE_URL ?? embedded!.url;
  await migrateDatabase(url);
  const { sql } = connect(url, { max: 2 });
  try {
    switch (command) {
      case 'keys create': {
        // Every argument is checked before the account is made: a refused command leaves nothing behind.
        const email = need(values, 'email');
        const rate = values['rate-limit'] ? Number(values['rate-limit']) : null;
        if (rate !== null && (!Number.isInteger(rate) || rate < 1)) throw new UsageError('--rate-limit must be a positive integer');
        const expiresAt = parseExpiry(values.expires);
        if (expiresAt && expiresAt.getTime() <= Date.now()) throw new UsageError('--expires must be in the future');
        const name = values.name ?? 'cli';
        if (!name.trim() || name.trim().length > 100) throw new UsageError('--name must be 1 to 100 characters');
        const account = await ensureAccount(sql, email);
        const key = await createApiKey(sql, { accountId: account.id, name, expiresAt, rateLimit: rate });
        console.error(`${account.created ? 'Created account' : 'Account'} ${account.email} (${account.id}); key ${key.id}.`);
        console.error('Store this key now: it is shown once and cannot be recovered.');
        console.log(key.key);
        break;
      }
      case 'keys list': {
        const account = await existingAccount(sql, need(values, 'email'));
        console.table(await listApiKeys(sql, account.id));
        break;
      }
      case 'keys revoke': {
        const account = await existingAccount(sql, need(values, 'email'));
        const ok = await revokeApiKey(sql, account.id, need(values, 'id'));
        if (!ok) throw new UsageError(`No key ${values.id} on ${account.email}`);
        console.log(`Revoked ${values.id}`);
        break;
      }
      case 'credits grant': {
        const account = await existingAccount(sql, need(values, 'email'));
        const amount = Number(need(values, 'amount'));
        if (!Number.isInteger(amount) || amount <= 0) throw new UsageError('--amount must be a positive integer');
        await grantCredits(sql, account.id, amount, 'cli grant');
        console.log(`Granted ${amount} credits to ${account.email}`);
        break;
      }
      case 'accounts set-password': {
        // For accounts made here before the website existed: sign-up never claims an existing email (see sign-up.ts).
        const account = await existingAccount(sql, need(values, 'email'));
        const password = (await readStdin()).replace(/\r?\n$/, '');
        const parsed = Credentials.safeParse({ email: account.email, password });
        if (!parsed.success) throw new UsageError(`Password: ${parsed.error.issues[0]?.message}`);
        await setPassword(sql, account.email, await hashPassword(password));
        console.log(`Password set for ${account.email}; its website sessions were signed out.`);
        break;
      }
      case 'accounts list': {
        const rows = await sql`select id, email, purchased_balance, created_at from accounts order by created_at`;
        console.table(rows.map((r) => ({ ...r })));
        break;
      }
    }
  } finally {
    await sql.end({ timeout: 5 });
    await embedded?.stop();
  }
}

main(process.argv.slice(2)).catch((err) => {
  // parseArgs reports unknown options and missing values as ERR_PARSE_ARGS_* errors: usage errors too.
  const parseError = String((err as { code?: unknown })?.code ?? '').startsWith('ERR_PARSE_ARGS');
  if (err instanceof UsageError || isServiceError(err) || parseError) {
    console.error(`Error: ${(err as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  console.error(err);
  process.exit(1);
});
