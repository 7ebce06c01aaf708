// Stored frames: one row per (video, time, requested width); the image itself is in the blob store.
import type { Sql } from '../../../db/client.ts';
import type { FrameStore } from '../../domain/frames/frame-store.ts';

export function createFrameStore(sql: Sql): FrameStore {
  return {
    async readMany(videoId, width, tMs) {
      const rows = await sql<
        {
          t_ms: number;
          width: number;
          height: number;
          mime_type: string;
          bytes: number;
          blob_key: string;
          source: 'stream' | 'storyboard';
        }[]
      >`
        select t_ms, width, height, mime_type, bytes, blob_key, source from frames
        where video_id = ${videoId} and width = ${width} and t_ms = any(${tMs}::int[])`;
      return new Map(
        rows.map((r) => [
          r.t_ms,
          {
            width: r.width,
            height: r.height,
            mimeType: r.mime_type,
            bytes: r.bytes,
            blobKey: r.blob_key,
            source: r.source,
          },
        ]),
      );
    },

    async storeIfAbsent(videoId, tMs, requestedWidth, f) {
      const rows = await sql`
        insert into frames (video_id, t_ms, width, height, mime_type, bytes, blob_key, source)
        values (${videoId}, ${tMs}, ${requestedWidth}, ${f.height}, ${f.mimeType}, ${f.bytes}, ${f.blobKey}, ${f.source})
        on conflict (video_id, t_ms, width) do nothing returning 1`;
      return rows.length > 0;
    },
  };
}
