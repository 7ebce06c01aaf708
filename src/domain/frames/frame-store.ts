import type { Sql } from '../../../db/client.ts';

export interface StoredFrame {
  width: number;
  height: number;
  mimeType: string;
  bytes: number;
  blobKey: string;
  source: 'stream' | 'storyboard';
}

export async function readStoredFrames(sql: Sql, videoId: string, width: number, tMs: number[]): Promise<Map<number, StoredFrame>> {
  const rows = await sql<{ t_ms: number; width: number; height: number; mime_type: string; bytes: number; blob_key: string; source: 'stream' | 'storyboard' }[]>`
    select t_ms, width, height, mime_type, bytes, blob_key, source from frames
    where video_id = ${videoId} and width = ${width} and t_ms = any(${tMs}::int[])`;
  return new Map(rows.map((r) => [r.t_ms, { width: r.width, height: r.height, mimeType: r.mime_type, bytes: r.bytes, blobKey: r.blob_key, source: r.source }]));
}

/** True when this call stored the frame (false: it was already there). */
export async function storeFrame(sql: Sql, videoId: string, tMs: number, requestedWidth: number, f: StoredFrame): Promise<boolean> {
  const rows = await sql`
    insert into frames (video_id, t_ms, width, height, mime_type, bytes, blob_key, source)
    values (${videoId}, ${tMs}, ${requestedWidth}, ${f.height}, ${f.mimeType}, ${f.bytes}, ${f.blobKey}, ${f.source})
    on conflict (video_id, t_ms, width) do nothing returning 1`;
  return rows.length > 0;
}
