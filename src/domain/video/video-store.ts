import type { SourceVideo } from '../ports.ts';

/** Metadata older than this is fetched again for info/tracks; transcripts keep using what is stored. */
export const VIDEO_INFO_TTL_MS = 6 * 3600_000;

type StoredVideo = SourceVideo & { fetchedAt: Date };

/** Video metadata and tracks as last fetched; implemented in src/infra/postgres/videos.ts. */
export interface VideoStore {
  read(videoId: string): Promise<StoredVideo | null>;
  store(videoId: string, video: SourceVideo): Promise<void>;
}
