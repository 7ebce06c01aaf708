// account_resources: what each account has obtained as an MCP resource.
import type { Sql } from '../../../db/client.ts';
import type { ResourceLibrary } from '../../domain/resources/resource-library.ts';

export function createResourceLibrary(sql: Sql): ResourceLibrary {
  return {
    async note(accountId, entries) {
      if (entries.length === 0) return;
      const rows = entries.map((e) => ({
        account_id: accountId,
        uri: e.uri,
        name: e.name,
        title: e.title,
        mime_type: e.mimeType,
      }));
      await sql`
        insert into account_resources ${sql(rows, 'account_id', 'uri', 'name', 'title', 'mime_type')}
        on conflict (account_id, uri) do update
          set name = excluded.name, title = excluded.title, mime_type = excluded.mime_type, seen_at = now()`;
    },
    async page(accountId, after, limit) {
      const rows = await sql<{ uri: string; name: string; title: string; mime_type: string; seen_at: string }[]>`
        select uri, name, title, mime_type, seen_at::text as seen_at from account_resources
        where account_id = ${accountId}
          ${
            // Bound as text: postgres.js sends a string for a timestamptz parameter through Date, losing microseconds.
            after ? sql`and (seen_at, uri) < (${after.seenAt}::text::timestamptz, ${after.uri})` : sql``
          }
        order by seen_at desc, uri desc
        limit ${limit}`;
      return rows.map((r) => ({ uri: r.uri, name: r.name, title: r.title, mimeType: r.mime_type, seenAt: r.seen_at }));
    },
  };
}
