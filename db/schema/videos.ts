import { integer, jsonb, pgTable, primaryKey, real, text, timestamp } from 'drizzle-orm/pg-core';

/** Metadata and track list as last fetched; refreshed after a TTL. Their shapes are the domain's (VideoInfo, SourceTrack[]). */
export const videos = pgTable('videos', {
  videoId: text('video_id').primaryKey(),
  info: jsonb('info').$type<Record<string, unknown>>().notNull(),
  tracks: jsonb('tracks').$type<Record<string, unknown>[]>().notNull(),
  fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Stored transcripts, one per (video, language, origin). `body` is the segments array already serialized,
 * so the hot path answers without re-serializing a thousand segments.
 */
export const transcripts = pgTable(
  'transcripts',
  {
    videoId: text('video_id').notNull(),
    lang: text('lang').notNull(),
    /** 'manual' | 'asr' for YouTube tracks, 'translation' and 'speech' (speech-to-text) for ours. */
    origin: text('origin', { enum: ['manual', 'asr', 'translation', 'speech'] }).notNull(),
    trackName: text('track_name').notNull(),
    segmentCount: integer('segment_count').notNull(),
    /** Seconds: the end of the last segment. */
    duration: real('duration').notNull(),
    body: text('body').notNull(),
    /**
     * Word timings, serialized: one entry per segment of `body` (an array of `{start, end, text, confidence?}`, or
     * null); null when the source has none (manual captions, translations, tracks without word offsets).
     */
    words: text('words'),
    /** Speech-to-text only: the engine (`local`, `openai-compatible`) and model that wrote it. */
    engine: text('engine'),
    model: text('model'),
    /**
     * Auto-generated tracks only: the language their text is in (ISO 639-1), identified once when stored; null when
     * the text was too short or unclear to tell, and for every other origin.
     */
    detectedLang: text('detected_lang'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.videoId, t.lang, t.origin] })],
);

export const frames = pgTable(
  'frames',
  {
    videoId: text('video_id').notNull(),
    /** Milliseconds, so that 1.5 and 1.500 are the same frame. */
    tMs: integer('t_ms').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    mimeType: text('mime_type').notNull(),
    bytes: integer('bytes').notNull(),
    blobKey: text('blob_key').notNull(),
    source: text('source', { enum: ['stream', 'storyboard'] }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.videoId, t.tMs, t.width] })],
);
