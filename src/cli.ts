import { parseArgs } from 'node:util';
import { connect, migrateDatabase } from '../db/client.ts';
import { ConfigError, parseConfig } from './config.ts';
import { grantCredits } from './domain/credits/credits.ts';
import { isServiceError } from './domain/errors.ts';
import { createApiKey, ensureAccount, findAccount, listApiKeys, revokeApiKey } from './domain/keys/manage-keys.ts';
import { startEmbeddedPostgres } from './infra/database/embedded-postgres.ts';
import { createStores } from './infra/postgres/stores.ts';
import type { Stores } from './domain/stores.ts';
import { Credentials } from './domain/accounts/credentials.ts';
import { hashPassword } from './domain/accounts/password.ts';
import { setPassword } from './domain/accounts/sign-in.ts';
import { reindexArticles } from './domain/articles/reindex-articles.ts';
import { createArticleSearch } from './infra/search/create-article-search.ts';

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
  accounts set-password --email <email>   (reads the password from stdin, e.g. a pipe; it never goes in argv)
  search reindex [--batch-size <n>]       (SEARCH_BACKEND=typesense: upserts every stored article, n per request, default 100)`;

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
async function existingAccount(stores: Stores, email: string) {
  const account = await findAccount(stores, email);
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
      'batch-size': { type: 'string' },
    },
  });
  const command = positionals.join(' ');
  const known = ['keys create', 'keys list', 'keys revoke', 'credits grant', 'accounts list', 'accounts set-password', 'search reindex'];
  if (!known.includes(command)) throw new UsageError(command ? `Unknown command: ${command}` : 'No command given');

  const config = parseConfig(process.env);
  let batchSize = 0;
  if (command === 'search reindex') {
    // Refused before any database work: with Postgres the articles table is the index (a generated tsvector column).
    if (config.SEARCH_BACKEND !== 'typesense') {
      throw new UsageError(
        `search reindex: SEARCH_BACKEND is ${config.SEARCH_BACKEND}, whose index is the articles table itself (kept current on every insert); ` +
          'there is nothing to rebuild. Set SEARCH_BACKEND=typesense, TYPESENSE_URL and TYPESENSE_API_KEY to fill a Typesense collection.',
      );
    }
    batchSize = values['batch-size'] === undefined ? 100 : Number(values['batch-size']);
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000) throw new UsageError('--batch-size must be an integer from 1 to 10000');
  }
  const embedded = config.DATABASE_URL ? null : await startEmbeddedPostgres(config.DATA_DIR);
  const url = config.DATABASE_URL ?? embedded!.url;
  await migrateDatabase(url);
  const { sql } = connect(url, { max: 2 });
  const stores = createStores(sql);
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
        const account = await ensureAccount(stores, email);
        const key = await createApiKey(stores, { accountId: account.id, name, expiresAt, rateLimit: rate });
        console.error(`${account.created ? 'Created account' : 'Account'} ${account.email} (${account.id}); key ${key.id}.`);
        console.error('Store this key now: it is shown once and cannot be recovered.');
        console.log(key.key);
        break;
      }
      case 'keys list': {
        const account = await existingAccount(stores, need(values, 'email'));
        console.table(await listApiKeys(stores, account.id));
        break;
      }
      case 'keys revoke': {
        const account = await existingAccount(stores, need(values, 'email'));
        const ok = await revokeApiKey(stores, account.id, need(values, 'id'));
        if (!ok) throw new UsageError(`No key ${values.id} on ${account.email}`);
        console.log(`Revoked ${values.id}`);
        break;
      }
      case 'credits grant': {
        const account = await existingAccount(stores, need(values, 'email'));
        const amount = Number(need(values, 'amount'));
        if (!Number.isInteger(amount) || amount <= 0) throw new UsageError('--amount must be a positive integer');
        await grantCredits(stores, account.id, amount, 'cli grant');
        console.log(`Granted ${amount} credits to ${account.email}`);
        break;
      }
      case 'accounts set-password': {
        // For accounts made here before the website existed: sign-up never claims an existing email (see sign-up.ts).
        const account = await existingAccount(stores, need(values, 'email'));
        const password = (await readStdin()).replace(/\r?\n$/, '');
        const parsed = Credentials.safeParse({ email: account.email, password });
        if (!parsed.success) throw new UsageError(`Password: ${parsed.error.issues[0]?.message}`);
        await setPassword(stores, account.email, await hashPassword(password));
        console.log(`Password set for ${account.email}; its website sessions were signed out.`);
        break;
      }
      case 'search reindex': {
        const search = createArticleSearch(config, sql);
        const total = await stores.articles.count();
        console.error(`Reindexing ${total} articles into Typesense at ${new URL(config.TYPESENSE_URL!).origin}, ${batchSize} per request...`);
        let shown = 0;
        let done = { read: 0, indexed: 0 };
        let result;
        try {
          result = await reindexArticles(stores, search, {
            batchSize,
            onBatch: (p) => {
              done = { read: p.read, indexed: p.indexed };
              // A progress line about every 10% (and the last): enough to see it move, not one per batch.
              if (p.read - shown >= Math.max(batchSize, total / 10) || p.read >= total) {
                shown = p.read;
                console.error(`  ${p.read} read, ${p.indexed} indexed, ${p.failed.length} failed`);
              }
            },
          });
        } catch (err) {
          // A whole request failed (Typesense down, wrong key): a runtime failure, not a usage error. Upserts are
          // idempotent, so running the command again redoes the lot.
          console.error(`Reindex stopped after ${done.indexed} of ${total} articles were indexed: ${(err as Error).message}`);
          process.exitCode = 1;
          break;
        }
        for (const f of result.failed.slice(0, 20)) console.error(`  failed ${f.id}: ${f.error}`);
        if (result.failed.length > 20) console.error(`  ...and ${result.failed.length - 20} more`);
        console.log(`Indexed ${result.indexed} of ${result.read} articles; ${result.failed.length} failed.`);
        if (result.failed.length) process.exitCode = 1;
        break;
      }
      case 'accounts list': {
        const rows = await stores.accounts.list();
        console.table(rows.map((r) => ({ id: r.id, email: r.email, purchased_balance: r.purchasedBalance, created_at: r.createdAt })));
        break;
      }
    }
  } finally {
    await sql.end({ timeout: 5 });
    await embedded?.stop();
  }
}

main(process.argv.slice(2)).catch((err) => {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(2);
  }
  // parseArgs reports unknown options and missing values as ERR_PARSE_ARGS_* errors: usage errors too.
  const parseError = String((err as { code?: unknown })?.code ?? '').startsWith('ERR_PARSE_ARGS');
  if (err instanceof UsageError || isServiceError(err) || parseError) {
    console.error(`Error: ${(err as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  console.error(err);
  process.exit(1);
});
