import type { Sql } from '../../../db/client.ts';
import type { BlobStore } from '../../domain/ports.ts';

/** The default blob store: frames kept in PostgreSQL beside everything else, so instances share them. */
export function createPgBlobStore(sql: Sql): BlobStore {
  return {
    async put(key, bytes, mimeType) {
      await sql`insert into blobs (key, mime_type, bytes) values (${key}, ${mimeType}, ${bytes})
                on conflict (key) do update set mime_type = excluded.mime_type, bytes = excluded.bytes`;
    },
    async get(key) {
      const [row] = await sql<
        { mime_type: string; bytes: Buffer }[]
      >`select mime_type, bytes from blobs where key = ${key}`;
      return row ? { bytes: row.bytes, mimeType: row.mime_type } : null;
    },
  };
}
