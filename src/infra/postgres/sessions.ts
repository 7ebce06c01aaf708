// Website sessions, stored by the SHA-256 of their token.
import type { Sql } from '../../../db/client.ts';
import type { SessionStore } from '../../domain/accounts/account-store.ts';

export function createSessionStore(sql: Sql): SessionStore {
  return {
    async create(s) {
      const [row] = await sql.begin(async (tx) => {
        if (s.replacingHash) await tx`delete from sessions where token_hash = ${s.replacingHash}`;
        // Expired sessions of this account are swept here rather than by a timer.
        await tx`delete from sessions where account_id = ${s.accountId} and expires_at < now()`;
        await tx`insert into sessions (id, account_id, token_hash, csrf_token, expires_at)
                 values (${s.id}, ${s.accountId}, ${s.tokenHash}, ${s.csrfToken}, ${s.expiresAt.toISOString()}::timestamptz)`;
        return tx<{ email: string; rate_limit: number | null }[]>`
          select email, rate_limit_per_minute as rate_limit from accounts where id = ${s.accountId}`;
      });
      return { email: row!.email, rateLimit: row!.rate_limit };
    },

    async findByTokenHash(tokenHash) {
      const [row] = await sql<
        { id: string; account_id: string; email: string; csrf_token: string; rate_limit: number | null }[]
      >`
        select s.id, s.account_id, a.email, s.csrf_token, a.rate_limit_per_minute as rate_limit
        from sessions s join accounts a on a.id = s.account_id
        where s.token_hash = ${tokenHash} and s.expires_at > now()`;
      return row
        ? {
            id: row.id,
            accountId: row.account_id,
            email: row.email,
            csrfToken: row.csrf_token,
            rateLimit: row.rate_limit,
          }
        : null;
    },

    async deleteByTokenHash(tokenHash) {
      await sql`delete from sessions where token_hash = ${tokenHash}`;
    },
  };
}
