import { z } from 'zod';
import { JobResource } from '../jobs/schemas.ts';
import { TRANSCRIPT_FORMATS } from './formats.ts';
import type { Stored } from '../stored-json.ts';
import { TranscriptChapter } from './transcript-chapters.ts';
import { TranscriptSegment, WordTiming } from './words.ts';
import { LanguageFields } from '../video/schemas.ts';

/** Segments per page: large enough for a three-hour talk in one answer, small enough to bound one. */
export const MAX_PAGE_SEGMENTS = 5000;
/** An agent's context is precious: MCP answers transcripts in pages of this many segments unless told otherwise. */
export const MCP_PAGE_SEGMENTS = 300;

export const LANG_PATTERN = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$/;
export const LangCode = z
  .string()
  .trim()
  .max(35)
  .regex(LANG_PATTERN, 'must be a BCP 47 language code such as en, en-GB or pt-BR');

export const VideoRefInput = {
  url: z
    .string()
    .trim()
    .max(2048)
    .optional()
    .describe('A YouTube URL in any common form (watch, youtu.be, shorts, embed, live)'),
  videoId: z
    .string()
    .trim()
    .max(64)
    .optional()
    .describe(
      'The 11-character YouTube video id (or a media-... id answered for a direct media URL); give this or url',
    ),
};

/** For the operations that also take a direct media URL (transcripts, frames). */
export const VideoOrMediaRefInput = {
  ...VideoRefInput,
  url: z
    .string()
    .trim()
    .max(2048)
    .optional()
    .describe(
      'A YouTube URL in any common form (watch, youtu.be, shorts, embed, live), or a direct media URL: https to an audio or video file or an HLS playlist on a public host (any host that is not YouTube’s is taken as one). A media URL is answered under the id media-<24 hex digits>',
    ),
};

export const TRANSCRIPT_MODES = ['native', 'generate', 'auto'] as const;
/** POST /subtitles's mode when none is given; a batch's transcripts default to BATCH_TRANSCRIPT_MODE. */
export const DEFAULT_TRANSCRIPT_MODE = 'auto' satisfies (typeof TRANSCRIPT_MODES)[number];
export const BATCH_TRANSCRIPT_MODE = 'native' satisfies (typeof TRANSCRIPT_MODES)[number];

/** What each mode does, written once for every description that lists the modes. */
const MODE_NOTES: Record<(typeof TRANSCRIPT_MODES)[number], string> = {
  auto: 'the video’s captions when it has any, else speech-to-text',
  native: 'captions only (422 NO_SUBTITLES when there are none)',
  generate: 'always speech-to-text, even when captions exist',
};

/** The modes, the default first: "`auto` (default): ...; `native`: ...". `quote` marks a mode's name. */
export function modesText(defaultMode: (typeof TRANSCRIPT_MODES)[number], quote = '`'): string {
  const order = [defaultMode, ...TRANSCRIPT_MODES.filter((m) => m !== defaultMode)];
  return order.map((m) => `${quote}${m}${quote}${m === defaultMode ? ' (default)' : ''}: ${MODE_NOTES[m]}`).join('; ');
}

export const TranscriptMode = z
  .enum(TRANSCRIPT_MODES)
  .describe(
    `${modesText(DEFAULT_TRANSCRIPT_MODE, '')}. ` +
      'Speech-to-text runs as a job: the answer is 202 with `job` to poll (GET /jobs/{id}) unless the transcript is already stored',
  );
export type TranscriptMode = z.infer<typeof TranscriptMode>;

export const GetTranscriptInput = z.object({
  ...VideoOrMediaRefInput,
  mode: TranscriptMode.optional(),
  lang: LangCode.optional().describe(
    'Language wanted. Omitted: the video’s own default track. Given: an exact match, then the same base language (en finds en-GB), manual tracks before auto-generated ones; a stored translation into this language also answers',
  ),
  format: z
    .enum(TRANSCRIPT_FORMATS)
    .default('json')
    .describe(
      'json (default): segments only. text, srt or vtt: `content` also carries the page’s segments rendered as plain text, SubRip or WebVTT',
    ),
  offset: z
    .number()
    .int()
    .min(0)
    .default(0)
    .describe('Index of the first segment to answer (0-based); page with the answer’s nextOffset'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SEGMENTS)
    .optional()
    .describe(
      `Segments per page, 1-${MAX_PAGE_SEGMENTS}. Default: all of them (REST, tRPC); ${MCP_PAGE_SEGMENTS} on MCP`,
    ),
  words: z
    .boolean()
    .optional()
    .describe(
      'true: each segment also carries `words`, each word with its own start and end (from YouTube’s auto-captions when the track times its words, and from speech-to-text); null where the source has none (manual captions, translations), as `wordTiming` says. With format vtt, word cues as YouTube’s own VTT writes them (`<00:00:01.240><c> word</c>`). Free: the same call, the same price',
    ),
  chapters: z
    .boolean()
    .optional()
    .describe(
      'true: `chapters` groups the page’s segments under the video’s chapters (null when the video has none); format text, and the MCP text, put each chapter’s title as a heading, vtt as a NOTE. Free: the same call, the same price',
    ),
});
export type GetTranscriptInput = z.infer<typeof GetTranscriptInput>;
/** What callers may pass: the defaults (format json, offset 0, every segment) filled in when omitted. */
export type GetTranscriptRequest = z.input<typeof GetTranscriptInput>;

/** Where a transcript came from. */
export const TRANSCRIPT_SOURCES = ['manual', 'auto-captions', 'speech-to-text', 'translation'] as const;

export const Transcript = z.object({
  status: z
    .literal('succeeded')
    .describe('The transcript is here (a speech-to-text job still running answers status queued or running instead)'),
  videoId: z.string(),
  lang: z
    .string()
    .describe(
      'Language of the track as YouTube labels it (the code to ask for it with lang); when YouTube labelled an auto-generated track wrongly, detectedLanguage is the one spoken (languageNote asr_label_mismatch)',
    ),
  requestedLang: z.string().nullable(),
  matchedBy: z.enum(['default', 'exact', 'base', 'translation']).describe('How the language was chosen'),
  trackName: z.string(),
  ...LanguageFields,
  autoGenerated: z
    .boolean()
    .describe(
      'Speech recognition (YouTube’s auto-captions or our speech-to-text) rather than captions written by people',
    ),
  source: z
    .enum(TRANSCRIPT_SOURCES)
    .describe(
      'manual: captions written by people; auto-captions: YouTube’s own speech recognition; speech-to-text: ours (see engine, model); translation: translated by Subtext',
    ),
  engine: z
    .string()
    .optional()
    .describe('For speech-to-text: the engine, `openai-compatible` (a Whisper server) or `local` (pocketsphinx)'),
  model: z.string().optional().describe('For speech-to-text: the model the engine ran'),
  segmentCount: z.number().int().describe('Segments in the whole transcript (not only this page)'),
  duration: z.number().describe('Seconds: the end of the last segment'),
  offset: z.number().int().describe('Index of the first segment in `segments`'),
  nextOffset: z.number().int().nullable().describe('The offset of the next page; null when this page reaches the end'),
  segments: z.array(TranscriptSegment).describe('This page of segments, from `offset`'),
  wordTiming: WordTiming.optional(),
  chapters: z
    .array(TranscriptChapter)
    .nullable()
    .optional()
    .describe(
      'With `chapters=true`: the video’s chapters holding segments of this page, each with those segments (also in `segments`); null when the video has no chapters',
    ),
  format: z.enum(TRANSCRIPT_FORMATS),
  content: z
    .string()
    .optional()
    .describe('For format text, srt or vtt: `segments` rendered as that file (SubRip cues numbered from offset + 1)'),
  cached: z.boolean().describe('Served from storage (free)'),
  creditsCharged: z
    .number()
    .int()
    .describe(
      'Credits this request cost: 2 for captions on a cache miss, 0 when stored; speech-to-text is charged to its job',
    ),
});
export type Transcript = z.infer<typeof Transcript>;

/** A speech-to-text job still running: poll `job` (GET /jobs/{id}); its result is the transcript. */
const PendingTranscript = z.object({
  status: z.enum(['queued', 'running']).describe('queued: waiting for a speech-to-text slot; running: transcribing'),
  videoId: z.string(),
  requestedLang: z.string().nullable(),
  source: z.literal('speech-to-text'),
  engine: z.string(),
  model: z.string(),
  estimatedCredits: z
    .number()
    .int()
    .describe(
      'Price for the audio’s reported duration; the job charges per started minute of the audio it transcribed, once, when it succeeds',
    ),
  cached: z.literal(false),
  creditsCharged: z.literal(0),
  job: JobResource,
});
type PendingTranscript = z.infer<typeof PendingTranscript>;

export const TranscriptAnswer = z.discriminatedUnion('status', [Transcript, PendingTranscript]);
export type TranscriptAnswer = z.infer<typeof TranscriptAnswer>;

/**
 * A page of a stored transcript as the domain answers it: its segments are the stored text (src/domain/stored-json.ts),
 * or values when a view (`words`, `chapters`) changed them.
 */
export type TranscriptPage = Stored<Transcript, 'segments'> | Transcript;
export type TranscriptPageAnswer = TranscriptPage | PendingTranscript;
