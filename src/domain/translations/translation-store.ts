import type { Segment } from '../video/schemas.ts';
import type { TranslatedTranscript } from './schemas.ts';

/** Translations per (video, source, target); implemented in src/infra/postgres/transcripts.ts. */
export interface TranslationStore {
  read(videoId: string, sourceLang: string, targetLang: string): Promise<TranslatedTranscript | null>;
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
