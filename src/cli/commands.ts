import type { Sql } from '../../db/client.ts';
import type { Stores } from '../domain/stores.ts';
import type { Config } from '../config.ts';
import { Credentials } from '../domain/accounts/credentials.ts';
import { hashPassword } from '../domain/accounts/password.ts';
import { setPassword } from '../domain/accounts/sign-in.ts';
import { createInvite } from '../domain/accounts/sign-up.ts';
import { reindexArticles } from '../domain/articles/reindex-articles.ts';
import { grantCredits } from '../domain/credits/credits.ts';
import { createApiKey, ensureAccount, findAccount, listApiKeys, revokeApiKey } from '../domain/keys/manage-keys.ts';
import { createArticleSearch } from '../infra/search/create-article-search.ts';
import { formatTable } from './format-table.ts';
import { UsageError } from './usage-error.ts';
import type { Io } from './io.ts';

export type Values = Record<string, string | boolean | undefined>;

/**
 * Checks every argument before the database is opened (a refused command changes nothing) and returns the work.
 * `out` prints the result (stdout), `note` says what happened (stderr, so `| tail -1` and `--json` stay clean).
 */
export type Prepare = (values: Values, config: Config) => (db: { stores: Stores; sql: Sql }, io: Io) => Promise<void>;

function need(values: Values, name: string): string {
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

/** Each command of command-list.ts, by name. */
export const PREPARE: Record<string, Prepare> = {
  'keys create'(values) {
    const email = need(values, 'email');
    const rate = typeof values['rate-limit'] === 'string' ? Number(values['rate-limit']) : null;
    if (rate !== null && (!Number.isInteger(rate) || rate < 1))
      throw new UsageError('--rate-limit must be a positive integer');
    const expiresAt = parseExpiry(values.expires as string | undefined);
    if (expiresAt && expiresAt.getTime() <= Date.now()) throw new UsageError('--expires must be in the future');
    const name = typeof values.name === 'string' ? values.name : 'cli';
    if (!name.trim() || name.trim().length > 100) throw new UsageError('--name must be 1 to 100 characters');
    return async ({ stores }, io) => {
      const account = await ensureAccount(stores, email);
      const key = await createApiKey(stores, { accountId: account.id, name, expiresAt, rateLimit: rate });
      if (io.json)
        return io.out(
          JSON.stringify({
            accountId: account.id,
            email: account.email,
            accountCreated: account.created,
            keyId: key.id,
            key: key.key,
          }),
        );
      io.note(`${account.created ? 'Created account' : 'Account'} ${account.email} (${account.id}); key ${key.id}.`);
      io.note('Store this key now: it is shown once and cannot be recovered.');
      io.out(key.key);
    };
  },
  'keys list'(values) {
    const email = need(values, 'email');
    return async ({ stores }, io) => {
      const keys = await listApiKeys(stores, (await existingAccount(stores, email)).id);
      if (io.json) return io.out(JSON.stringify(keys, null, 2));
      io.out(
        formatTable(
          keys,
          [
            ['ID', (k) => k.id],
            ['NAME', (k) => k.name],
            ['PREFIX', (k) => k.prefix],
            ['STATUS', (k) => k.status],
            ['CREATED', (k) => k.createdAt],
            ['LAST USED', (k) => k.lastUsedAt],
            ['EXPIRES', (k) => k.expiresAt],
          ],
          `No keys for ${email}.`,
        ),
      );
    };
  },
  'keys revoke'(values) {
    const email = need(values, 'email');
    const id = need(values, 'id');
    return async ({ stores }, io) => {
      const account = await existingAccount(stores, email);
      if (!(await revokeApiKey(stores, account.id, id))) throw new UsageError(`No key ${id} on ${account.email}`);
      io.out(io.json ? JSON.stringify({ revoked: id }) : `Revoked ${id}`);
    };
  },
  'credits grant'(values) {
    const email = need(values, 'email');
    const amount = Number(need(values, 'amount'));
    if (!Number.isInteger(amount) || amount <= 0) throw new UsageError('--amount must be a positive integer');
    return async ({ stores }, io) => {
      const account = await existingAccount(stores, email);
      await grantCredits(stores, account.id, amount, 'cli grant');
      io.out(
        io.json
          ? JSON.stringify({ email: account.email, granted: amount })
          : `Granted ${amount} credits to ${account.email}`,
      );
    };
  },
  'accounts list'() {
    return async ({ stores }, io) => {
      const accounts = (await stores.accounts.list()).map((a) => ({
        ...a,
        purchasedBalance: Number(a.purchasedBalance),
        createdAt: a.createdAt.toISOString(),
      }));
      if (io.json) return io.out(JSON.stringify(accounts, null, 2));
      io.out(
        formatTable(
          accounts,
          [
            ['ID', (a) => a.id],
            ['EMAIL', (a) => a.email],
            ['PURCHASED', (a) => a.purchasedBalance],
            ['CREATED', (a) => a.createdAt],
          ],
          'No accounts yet (keys create makes one).',
        ),
      );
    };
  },
  'invites create'() {
    return async ({ stores }, io) => {
      const code = await createInvite(stores);
      io.note('Invite code (single use; shown once, stored only as a hash):');
      io.out(code);
    };
  },
  'accounts set-password'(values) {
    const email = need(values, 'email');
    return async ({ stores }, io) => {
      // For accounts made here before the website existed: sign-up never claims an existing email (see sign-up.ts).
      const account = await existingAccount(stores, email);
      const password = (await io.readStdin()).replace(/\r?\n$/, '');
      const parsed = Credentials.safeParse({ email: account.email, password });
      if (!parsed.success) throw new UsageError(`Password: ${parsed.error.issues[0]?.message}`);
      await setPassword(stores, account.email, await hashPassword(password));
      io.out(`Password set for ${account.email}; its website sessions were signed out.`);
    };
  },
  'search reindex'(values, config) {
    // Refused before any database work: with Postgres the articles table is the index (a generated tsvector column).
    if (config.SEARCH_BACKEND !== 'typesense') {
      throw new UsageError(
        `search reindex: SEARCH_BACKEND is ${config.SEARCH_BACKEND}, whose index is the articles table itself (kept current on every insert); ` +
          'there is nothing to rebuild. Set SEARCH_BACKEND=typesense, TYPESENSE_URL and TYPESENSE_API_KEY to fill a Typesense collection.',
      );
    }
    const batchSize = values['batch-size'] === undefined ? 100 : Number(values['batch-size']);
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000)
      throw new UsageError('--batch-size must be an integer from 1 to 10000');
    return async ({ stores, sql }, io) => {
      const search = await createArticleSearch(config, sql);
      const total = await stores.articles.count();
      io.note(
        `Reindexing ${total} articles into Typesense at ${new URL(config.TYPESENSE_URL!).origin}, ${batchSize} per request...`,
      );
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
              io.note(`  ${p.read} read, ${p.indexed} indexed, ${p.failed.length} failed`);
            }
          },
        });
      } catch (err) {
        // A whole request failed (Typesense down, wrong key): a runtime failure, not a usage error. Upserts are
        // idempotent, so running the command again redoes the lot.
        io.note(`Reindex stopped after ${done.indexed} of ${total} articles were indexed: ${(err as Error).message}`);
        process.exitCode = 1;
        return;
      }
      for (const f of result.failed.slice(0, 20)) io.note(`  failed ${f.id}: ${f.error}`);
      if (result.failed.length > 20) io.note(`  ...and ${result.failed.length - 20} more`);
      io.out(`Indexed ${result.indexed} of ${result.read} articles; ${result.failed.length} failed.`);
      if (result.failed.length) process.exitCode = 1;
    };
  },
  'youtube status'(values, config) {
    const hours = values.hours === undefined ? 24 : Number(values.hours);
    if (!Number.isInteger(hours) || hours < 1 || hours > 24 * 14)
      throw new UsageError('--hours must be an integer from 1 to 336');
    return async ({ sql }, io) => {
      // Loaded here: its proxy pool brings undici, about 110 modules, which the other commands never use.
      const { printYoutubeStatus, readYoutubeStatus } = await import('./youtube-status.ts');
      printYoutubeStatus(await readYoutubeStatus(sql, config, hours), hours, io);
    };
  },
  'youtube check'(values, config) {
    const given = typeof values.videos === 'string' ? values.videos.split(',').filter(Boolean) : [];
    const ids = given.length ? given : config.YOUTUBE_CANARY_VIDEOS;
    if (ids.length === 0) throw new UsageError('Name a video with captions, or set YOUTUBE_CANARY_VIDEOS');
    const bad = ids.find((id) => !/^[\w-]{11}$/.test(id));
    if (bad) throw new UsageError(`Not a YouTube video id: ${JSON.stringify(bad)}`);
    return async ({ sql }, io) => {
      // The canary builds a YouTube source: youtubei.js, about 670 modules, which no other command needs.
      const { checkYoutube, printYoutubeCheck } = await import('./youtube-check.ts');
      printYoutubeCheck(await checkYoutube(sql, config, ids), io);
    };
  },
};
