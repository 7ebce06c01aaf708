import type { Segment } from '../video/schemas.ts';
import type { TranslatedTranscript } from './schemas.ts';

/** A stored translation as read: its segments are the JSON text stored (validated then), not parsed here. */
export type StoredTranslation = Omit<TranslatedTranscript, 'segments'> & { body: string };

/** Translations per (video, source, target); implemented in src/infra/postgres/transcripts.ts. */
export interface TranslationStore {
  read(videoId: string, sourceLang: string, targetLang: string): Promise<StoredTranslation | null>;
  exists(videoId: string, sourceLang: string, targetLang: string): Promise<boolean>;
  /** Stores or replaces the translation, and keeps it as the video's transcript in the target language too. */
  store(t: {
    videoId: string;
    sourceLang: string;
    targetLang: string;
    segments: Segment[];
    model: string;
  }): Promise<void>;
}
