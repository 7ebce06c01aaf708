// What the MCP texts share: counts, what was charged, how to follow a job, bounded text.
import { credits } from '../../domain/pricing/prices.ts';

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "2 credits charged", "0 credits charged (stored, free)": `free` says why nothing was charged, when it was not. */
export const chargedText = (n: number, free?: 'stored' | 'cached' | false) =>
  `${credits(n)} charged${free ? ` (${free}, free)` : ''}`;

export const watchUrl = (videoId: string) => `https://www.youtube.com/watch?v=${encodeURIComponent(videoId)}`;

export function truncate(text: string, max: number, what: string): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max).trimEnd()}… (${text.length - max} more characters: the full ${what} is in structuredContent)`;
}

/** Long work answered before it finished: how far it is, and how to follow it. */
export const pollText = (what: string, status: string, job: { id: string; progress: number }) =>
  `${what} ${status} (progress ${Math.round(job.progress * 100)}%). Call get_job with id "${job.id}" until status is succeeded.`;

/** Why a track's or a transcript's language is not simply its label (spoken-language.ts), as one sentence; '' if not. */
export function languageNoteText(t: { lang: string; detectedLanguage?: string; languageNote?: string }): string {
  if (t.languageNote === 'asr_label_mismatch')
    return `YouTube labels these auto-generated captions ${t.lang}, but their text is in ${t.detectedLanguage}.`;
  if (t.languageNote === 'manual_track_in_spoken_language')
    return `The manual ${t.lang} captions, in the language spoken${t.detectedLanguage ? ` (${t.detectedLanguage})` : ''}, answer instead of the auto-generated default.`;
  return '';
}
