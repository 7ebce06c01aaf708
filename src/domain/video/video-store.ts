import type { Sql } from '../../../db/client.ts';
import type { SourceTrack, SourceVideo } from '../ports.ts';
import type { VideoInfo } from './schemas.ts';

/** Metadata older than this is fetched again for info/tracks; transcripts keep using what is stored. */
export const VIDEO_INFO_TTL_MS = 6 * 3600_000;

export async function readStoredVideo(sql: Sql, videoId: string): Promise<(SourceVideo & { fetchedAt: Date }) | null> {
  const [row] = await sql<{ info: VideoInfo; tracks: SourceTrack[]; fetched_at: Date }[]>`
    select info, tracks, fetched_at from videos where video_id = ${videoId}`;
  return row ? { info: row.info, tracks: row.tracks, fetchedAt: row.fetched_at } : null;
}

export async function storeVideo(sql: Sql, videoId: string, video: SourceVideo): Promise<void> {
  await sql`
    insert into videos (video_id, info, tracks, fetched_at)
    values (${videoId}, ${sql.json(video.info as never)}, ${sql.json(video.tracks as never)}, now())
    on conflict (video_id) do update set info = excluded.info, tracks = excluded.tracks, fetched_at = now()`;
}
