import type { Sql } from '../../../db/client.ts';
import { storeTranscript } from '../subtitles/transcript-store.ts';
import type { Segment } from '../video/schemas.ts';
import type { TranslatedTranscript } from './schemas.ts';

export async function readTranslation(sql: Sql, videoId: string, sourceLang: string, targetLang: string): Promise<TranslatedTranscript | null> {
  const [row] = await sql<{ segment_count: number; duration: number; body: string; model: string; created_at: Date }[]>`
    select segment_count, duration, body, model, created_at from translations
    where video_id = ${videoId} and source_lang = ${sourceLang} and target_lang = ${targetLang}`;
  if (!row) return null;
  return {
    videoId,
    sourceLang,
    targetLang,
    segmentCount: row.segment_count,
    duration: row.duration,
    segments: JSON.parse(row.body) as Segment[],
    model: row.model,
    createdAt: row.created_at.toISOString(),
  };
}

/**
 * Keeps a translation per (video, source, target), and also as the video's transcript in the target language
 * (origin 'translation'), which get_video_subtitles serves when YouTube has no track in that language. The
 * transcripts table has one translation per (video, language): the latest one wins there.
 */
export async function storeTranslation(
  sql: Sql,
  t: { videoId: string; sourceLang: string; targetLang: string; segments: Segment[]; model: string },
): Promise<void> {
  const duration = t.segments.reduce((m, s) => Math.max(m, s.end), 0);
  await sql`
    insert into translations (video_id, source_lang, target_lang, segment_count, duration, body, model)
    values (${t.videoId}, ${t.sourceLang}, ${t.targetLang}, ${t.segments.length}, ${duration}, ${JSON.stringify(t.segments)}, ${t.model})
    on conflict (video_id, source_lang, target_lang) do update set
      segment_count = excluded.segment_count, duration = excluded.duration, body = excluded.body,
      model = excluded.model, created_at = now()`;
  await storeTranscript(sql, t.videoId, {
    lang: t.targetLang,
    origin: 'translation',
    trackName: `${t.targetLang} (translated from ${t.sourceLang})`,
    segments: t.segments,
  });
}
