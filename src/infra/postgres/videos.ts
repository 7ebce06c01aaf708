// Video metadata and track lists as last fetched from YouTube.
import type { Sql } from '../../../db/client.ts';
import type { SourceTrack } from '../../domain/ports.ts';
import type { VideoStore } from '../../domain/video/video-store.ts';
import type { VideoInfo } from '../../domain/video/schemas.ts';
import { jsonValue } from './json-value.ts';

export function createVideoStore(sql: Sql): VideoStore {
  return {
    async read(videoId) {
      const [row] = await sql<{ info: VideoInfo; tracks: SourceTrack[]; fetched_at: Date }[]>`
        select info, tracks, fetched_at from videos where video_id = ${videoId}`;
      return row ? { info: row.info, tracks: row.tracks, fetchedAt: row.fetched_at } : null;
    },

    async store(videoId, video) {
      // postgres's JSONValue wants an index signature the SourceTrack interface lacks: hence the cast.
      await sql`
        insert into videos (video_id, info, tracks, fetched_at)
        values (${videoId}, ${sql.json(video.info)}, ${sql.json(jsonValue(video.tracks))}, now())
        on conflict (video_id) do update set info = excluded.info, tracks = excluded.tracks, fetched_at = now()`;
    },
  };
}
