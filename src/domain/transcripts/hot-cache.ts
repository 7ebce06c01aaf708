import { createLruCache } from '../lru-cache.ts';
import type { SourceVideo } from '../ports.ts';
import { cachedSegments, type CachedSegments } from './stored-segments.ts';
import type { StoredTranscript } from './transcript-store.ts';
import type { Word } from './words.ts';

/**
 * The segments' stored text is kept as bytes (stored-segments.ts), not as the string read from PostgreSQL, so that
 * V8's heap does not grow (and stay grown) with every transcript cached: the string dies young, the bytes live
 * outside the heap and are freed with the entry.
 */
export interface CachedTranscript extends Omit<StoredTranscript, 'body' | 'words'>, CachedSegments {
  /** Whether the source timed its words (stored beside the segments). */
  hasWords: boolean;
  /** The words of each segment (null where it has none), parsed on first use; null when the source has none. */
  words(): (Word[] | null)[] | null;
}

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

/** Three quarters of CACHE_MAX_MB's default, as the service sizes it. */
const DEFAULT_CACHE_BYTES = 24 * 1024 * 1024;
const TRANSCRIPT_TTL_MS = 10 * 60_000;
/** Translations into a language can be replaced (from another source language): keep them briefly. */
const TRANSLATION_TTL_MS = 30_000;
/** Video rows are refreshed after a TTL by any instance: a short life keeps instances in step. */
const VIDEO_TTL_MS = 30_000;

/** What the cached-transcript hot path reads on every request, kept in memory in front of PostgreSQL. */
export function createHotCache(maxBytes = DEFAULT_CACHE_BYTES) {
  const transcripts = createLruCache<CachedTranscript>({ maxBytes });
  const videos = createLruCache<SourceVideo & { fetchedAt: Date }>({ maxBytes: Math.floor(maxBytes / 8) });
  return {
    getTranscript: (videoId: string, lang: string, origin: string) =>
      transcripts.get(`${videoId}\u0000${lang}\u0000${origin}`),
    setTranscript(videoId: string, t: StoredTranscript): CachedTranscript {
      const { body, words: wordsText, ...meta } = t;
      const segments = cachedSegments(body);
      // Word timings are read only by answers that ask for them: kept as bytes, parsed then.
      const wordsJson = wordsText ? utf8.encode(wordsText) : null;
      let parsedWords: (Word[] | null)[] | undefined;
      // Counted as the stored texts: the bounds (8 bytes a segment) ride along uncounted.
      const value: CachedTranscript = {
        ...meta,
        ...segments,
        hasWords: wordsJson !== null,
        words() {
          if (!wordsJson) return null;
          parsedWords ??= JSON.parse(fromUtf8.decode(wordsJson)) as (Word[] | null)[];
          return parsedWords;
        },
      };
      transcripts.set(
        `${videoId}\u0000${t.lang}\u0000${t.origin}`,
        value,
        segments.segmentsJson.length + (wordsJson?.length ?? 0),
        t.origin === 'translation' ? TRANSLATION_TTL_MS : TRANSCRIPT_TTL_MS,
      );
      return value;
    },
    /** Bytes held by cached transcripts (for the bench and tests). */
    get transcriptBytes() {
      return transcripts.bytes;
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
