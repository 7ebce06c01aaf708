// Stored transcripts (YouTube's tracks and our translations) and translations per source language.
import type { Sql } from '../../../db/client.ts';
import type { NewTranscript, Origin, TranscriptStore } from '../../domain/transcripts/transcript-store.ts';
import type { TranslationStore } from '../../domain/translations/translation-store.ts';
import type { Segment } from '../../domain/video/schemas.ts';

type TranscriptRow = {
  lang: string;
  origin: Origin;
  track_name: string;
  segment_count: number;
  duration: number;
  body: string;
  words: string | null;
  engine: string | null;
  model: string | null;
  detected_lang: string | null;
};

const fromRow = (row: TranscriptRow) => ({
  lang: row.lang,
  origin: row.origin,
  trackName: row.track_name,
  segmentCount: row.segment_count,
  duration: row.duration,
  body: row.body,
  words: row.words,
  engine: row.engine,
  model: row.model,
  detectedLang: row.detected_lang,
});

const endOf = (segments: Segment[]) => segments.reduce((m, s) => Math.max(m, s.end), 0);

export function createTranscriptStore(sql: Sql): TranscriptStore {
  return {
    async read(videoId, lang, origin) {
      const [row] = await sql<TranscriptRow[]>`
        select lang, origin, track_name, segment_count, duration, body, words, engine, model, detected_lang from transcripts
        where video_id = ${videoId} and lang = ${lang} and origin = ${origin}`;
      return row ? fromRow(row) : null;
    },

    async storeIfAbsent(videoId, t) {
      const rows = await sql`
        insert into transcripts (video_id, lang, origin, track_name, segment_count, duration, body, words, engine, model, detected_lang)
        values (${videoId}, ${t.lang}, ${t.origin}, ${t.trackName}, ${t.segments.length}, ${endOf(t.segments)}, ${JSON.stringify(t.segments)},
                ${t.words ? JSON.stringify(t.words) : null}, ${t.engine ?? null}, ${t.model ?? null}, ${t.detectedLang ?? null})
        on conflict (video_id, lang, origin) do nothing returning 1`;
      return rows.length > 0;
    },

    async asrDetections(videoId) {
      const rows = await sql<{ lang: string; detected_lang: string | null }[]>`
        select lang, detected_lang from transcripts where video_id = ${videoId} and origin = 'asr'`;
      return new Map(rows.map((r) => [r.lang, r.detected_lang]));
    },

    store: (videoId, t) => storeTranscript(sql, videoId, t),

    async findSpeech(videoId, lang) {
      const [row] = await sql<TranscriptRow[]>`
        select lang, origin, track_name, segment_count, duration, body, words, engine, model, detected_lang from transcripts
        where video_id = ${videoId} and origin = 'speech'
          and (${lang}::text is null or lower(lang) = lower(${lang}) or lower(split_part(lang, '-', 1)) = lower(split_part(${lang}, '-', 1)))
        order by (lower(lang) = lower(coalesce(${lang}, lang))) desc, created_at desc
        limit 1`;
      return row ? fromRow(row) : null;
    },

    async findIn(videoId, lang) {
      const rows = await sql<TranscriptRow[]>`
        select lang, origin, track_name, segment_count, duration, body, words, engine, model, detected_lang from transcripts
        where video_id = ${videoId} and (lower(lang) = lower(${lang}) or lower(split_part(lang, '-', 1)) = lower(${lang}))
        order by (lower(lang) = lower(${lang})) desc,
          case origin when 'manual' then 0 when 'asr' then 1 when 'speech' then 2 else 3 end
        limit 1`;
      const row = rows[0];
      return row ? { ...fromRow(row), segments: JSON.parse(row.body) as Segment[] } : null;
    },
  };
}

async function storeTranscript(
  sql: Sql,
  videoId: string,
  t: { lang: string; origin: Origin; trackName: string; segments: Segment[]; words?: NewTranscript['words'] },
): Promise<void> {
  await sql`
    insert into transcripts (video_id, lang, origin, track_name, segment_count, duration, body, words)
    values (${videoId}, ${t.lang}, ${t.origin}, ${t.trackName}, ${t.segments.length}, ${endOf(t.segments)}, ${JSON.stringify(t.segments)},
            ${t.words ? JSON.stringify(t.words) : null})
    on conflict (video_id, lang, origin) do update set
      track_name = excluded.track_name, segment_count = excluded.segment_count, duration = excluded.duration,
      body = excluded.body, words = excluded.words, created_at = now()`;
}

export function createTranslationStore(sql: Sql): TranslationStore {
  return {
    async read(videoId, sourceLang, targetLang) {
      const [row] = await sql<
        { segment_count: number; duration: number; body: string; model: string; created_at: Date }[]
      >`
        select segment_count, duration, body, model, created_at from translations
        where video_id = ${videoId} and source_lang = ${sourceLang} and target_lang = ${targetLang}`;
      if (!row) return null;
      return {
        videoId,
        sourceLang,
        targetLang,
        segmentCount: row.segment_count,
        duration: row.duration,
        body: row.body,
        model: row.model,
        createdAt: row.created_at.toISOString(),
      };
    },

    async exists(videoId, sourceLang, targetLang) {
      const [row] = await sql<{ n: number }[]>`
        select 1 as n from translations where video_id = ${videoId} and source_lang = ${sourceLang} and target_lang = ${targetLang}`;
      return !!row;
    },

    /**
     * Keeps a translation per (video, source, target), and also as the video's transcript in the target language
     * (origin 'translation'), which get_video_subtitles serves when YouTube has no track in that language. The
     * transcripts table has one translation per (video, language): the latest one wins there.
     */
    async store(t) {
      await sql`
        insert into translations (video_id, source_lang, target_lang, segment_count, duration, body, model)
        values (${t.videoId}, ${t.sourceLang}, ${t.targetLang}, ${t.segments.length}, ${endOf(t.segments)}, ${JSON.stringify(t.segments)}, ${t.model})
        on conflict (video_id, source_lang, target_lang) do update set
          segment_count = excluded.segment_count, duration = excluded.duration, body = excluded.body,
          model = excluded.model, created_at = now()`;
      await storeTranscript(sql, t.videoId, {
        lang: t.targetLang,
        origin: 'translation',
        trackName: `${t.targetLang} (translated from ${t.sourceLang})`,
        segments: t.segments,
      });
    },
  };
}
