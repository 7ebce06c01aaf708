import type { api } from '../api.ts';

type VideoInfo = Awaited<ReturnType<typeof api.videos.info.query>>;
type Track = Awaited<ReturnType<typeof api.videos.tracks.query>>['tracks'][number];
export type Transcript = Extract<Awaited<ReturnType<typeof api.subtitles.get.mutate>>, { status: 'succeeded' }>;

/** What the panels of one video share: its info and tracks, and the transcript once fetched. */
export interface VideoContext {
  info: VideoInfo;
  tracks: Track[];
  transcript: Transcript | null;
  /** Called when a transcript (original or translated) has been loaded. */
  onTranscript(t: Transcript | { videoId: string; lang: string; segments: Transcript['segments'] }): void;
}
