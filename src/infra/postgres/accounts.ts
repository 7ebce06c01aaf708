// Accounts and their sign-in attempt counters.
import type { PendingQuery, Row } from 'postgres';
import type { Sql } from '../../../db/client.ts';
import type { AccountStore } from '../../domain/accounts/account-store.ts';
import { newId } from '../../domain/ids.ts';

export function createAccountStore(sql: Sql): AccountStore {
  return { ...accountRecords(sql), ...passwordSignUp(sql), ...signInAttempts(sql) };
}

function accountRecords(sql: Sql): Pick<AccountStore, 'ensure' | 'findByEmail' | 'list'> {
  return {
    async ensure(email) {
      const inserted = await sql<{ id: string }[]>`
        insert into accounts (id, email) values (${newId('acc')}, ${email})
        on conflict (email) do nothing returning id`;
      if (inserted[0]) return { id: inserted[0].id, created: true };
      const [row] = await sql<{ id: string }[]>`select id from accounts where email = ${email}`;
      return { id: row!.id, created: false };
    },

    async findByEmail(email) {
      const [row] = await sql<{ id: string }[]>`select id from accounts where email = ${email}`;
      return row ? { id: row.id } : null;
    },

    async list() {
      const rows = await sql<{ id: string; email: string; purchased_balance: number; created_at: Date }[]>`
        select id, email, purchased_balance, created_at from accounts order by created_at`;
      return rows.map((r) => ({
        id: r.id,
        email: r.email,
        purchasedBalance: r.purchased_balance,
        createdAt: r.created_at,
      }));
    },
  };
}

function passwordSignUp(
  sql: Sql,
): Pick<AccountStore, 'createWithPassword' | 'inviteUnused' | 'saveInvite' | 'passwordOf' | 'setPassword'> {
  return {
    async createWithPassword(email, passwordHash, opts) {
      const taken = Symbol('email taken');
      try {
        return await sql.begin(async (tx) => {
          if (opts.inviteHash) {
            const spent = await tx`update sign_up_invites set used_at = now()
              where code_hash = ${opts.inviteHash} and used_at is null returning code_hash`;
            if (spent.length === 0) return { refused: 'invite-invalid' as const };
          }
          const [row] = await tx<{ id: string }[]>`
            insert into accounts (id, email, password_hash, free_from)
            values (${newId('acc')}, ${email}, ${passwordHash}, ${opts.freeFrom}::date)
            on conflict (email) do nothing returning id`;
          // Thrown, not returned: the rollback gives the invite back.
          if (!row) throw taken;
          if (opts.inviteHash)
            await tx`update sign_up_invites set account_id = ${row.id} where code_hash = ${opts.inviteHash}`;
          return { id: row.id };
        });
      } catch (e) {
        if (e === taken) return { refused: 'email-taken' };
        throw e;
      }
    },

    async inviteUnused(codeHash) {
      const rows = await sql`select 1 from sign_up_invites where code_hash = ${codeHash} and used_at is null`;
      return rows.length > 0;
    },

    async saveInvite(codeHash) {
      await sql`insert into sign_up_invites (code_hash) values (${codeHash})`;
    },

    async passwordOf(email) {
      const [row] = await sql<{ id: string; password_hash: string | null }[]>`
        select id, password_hash from accounts where email = ${email}`;
      return row ? { id: row.id, passwordHash: row.password_hash } : null;
    },

    async setPassword(email, passwordHash) {
      const rows = await sql`update accounts set password_hash = ${passwordHash} where email = ${email} returning id`;
      if (rows.length > 0) await sql`delete from sessions where account_id = ${rows[0]!.id}`;
      return rows.length > 0;
    },
  };
}

function signInAttempts(
  sql: Sql,
): Pick<AccountStore, 'countSignInAttempt' | 'signInAttemptsSoFar' | 'claimSignInAttempt' | 'clearSignInFailures'> {
  return {
    async countSignInAttempt(subject, windowStart) {
      const [row] = await sql<{ count: number }[]>`
        insert into sign_in_attempts (subject, window_start, count) values (${subject}, ${windowStart.toISOString()}::timestamptz, 1)
        on conflict (subject, window_start) do update set count = sign_in_attempts.count + 1
        returning count`;
      return row!.count;
    },

    async signInAttemptsSoFar(subject, windowStart) {
      const [row] = await sql<{ count: number }[]>`
        select count from sign_in_attempts where subject = ${subject} and window_start = ${windowStart.toISOString()}::timestamptz`;
      return row?.count ?? 0;
    },

    async claimSignInAttempt(email, address, at, rule) {
      const t = rule.threshold;
      // The attempt number after this one; a pair quiet for `memoryS` starts over.
      const n = sql`(case when f.last_attempt_at < ${at}::timestamptz - make_interval(secs => ${rule.memoryS}::int)
                     then 1 else f.failures + 1 end)`;
      // The exponent is bounded so that power() cannot overflow, whatever the count.
      const waitUntil = (k: PendingQuery<Row[]>) =>
        sql`case when ${k} >= ${t}::int then ${at}::timestamptz + make_interval(secs =>
              least(${rule.maxDelayS}::float8, ${rule.firstDelayS}::float8 * power(2, least(${k} - ${t}::int, 30))))
            end`;
      const one = sql`1`;
      const admitted = await sql`
        insert into sign_in_failures as f (email, address, failures, last_attempt_at, blocked_until)
        values (${email}, ${address}, 1, ${at}::timestamptz, ${waitUntil(one)})
        on conflict (email, address) do update
          set failures = ${n}, last_attempt_at = excluded.last_attempt_at, blocked_until = ${waitUntil(n)}
          where f.blocked_until is null or f.blocked_until <= excluded.last_attempt_at
        returning failures`;
      if (admitted.length > 0) return { admitted: true };
      const [row] = await sql<{ blocked_until: Date }[]>`
        select blocked_until from sign_in_failures where email = ${email} and address = ${address}`;
      return { admitted: false, blockedUntil: row!.blocked_until };
    },

    async clearSignInFailures(email, address) {
      await sql`delete from sign_in_failures where email = ${email} and address = ${address}`;
    },
  };
}
