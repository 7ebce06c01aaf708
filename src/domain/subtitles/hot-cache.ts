import { createLruCache } from '../lru-cache.ts';
import type { SourceVideo } from '../ports.ts';
import type { Segment } from '../video/schemas.ts';
import type { StoredTranscript } from './transcript-store.ts';

export interface CachedTranscript extends StoredTranscript {
  /** Parsed once and shared by every request that reads it: never mutate. */
  segments: Segment[];
}

/** Parsed segments take about three times their JSON text in memory. */
const PARSED_FACTOR = 3;
const TRANSCRIPT_TTL_MS = 10 * 60_000;
/** Translations into a language can be replaced (from another source language): keep them briefly. */
const TRANSLATION_TTL_MS = 30_000;
/** Video rows are refreshed after a TTL by any instance: a short life keeps instances in step. */
const VIDEO_TTL_MS = 30_000;

/** What the cached-transcript hot path reads on every request, kept in memory in front of PostgreSQL. */
export function createHotCache(maxBytes = 64 * 1024 * 1024) {
  const transcripts = createLruCache<CachedTranscript>({ maxBytes });
  const videos = createLruCache<SourceVideo & { fetchedAt: Date }>({ maxBytes: Math.floor(maxBytes / 8) });
  return {
    getTranscript: (videoId: string, lang: string, origin: string) => transcripts.get(`${videoId}\u0000${lang}\u0000${origin}`),
    setTranscript(videoId: string, t: StoredTranscript) {
      const value: CachedTranscript = { ...t, segments: JSON.parse(t.body) as Segment[] };
      const ttl = t.origin === 'translation' ? TRANSLATION_TTL_MS : TRANSCRIPT_TTL_MS;
      transcripts.set(`${videoId}\u0000${t.lang}\u0000${t.origin}`, value, t.body.length * PARSED_FACTOR, ttl);
      return value;
    },
    getVideo: (videoId: string) => videos.get(videoId),
    setVideo(videoId: string, v: SourceVideo & { fetchedAt: Date }) {
      videos.set(videoId, v, JSON.stringify(v.tracks).length + 4096, VIDEO_TTL_MS);
    },
    forgetVideo: (videoId: string) => videos.delete(videoId),
    stats: () => ({ transcripts: transcripts.stats(), videos: videos.stats() }),
  };
}
export type HotCache = ReturnType<typeof createHotCache>;
