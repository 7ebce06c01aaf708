// Every price of the service, in credits. Procedures, their OpenAPI and MCP descriptions, and the website's
// "this will cost" labels read them from here; the docs' price tables are generated from it (npm run docs:generate).
import { BATCH_TRANSCRIPT_MODE, type TranscriptMode } from '../transcripts/schemas.ts';

/** A transcript extracted from YouTube; stored ones (and further pages, other formats) are free. */
export const TRANSCRIPT_PRICE = 2;

/** One page of a playlist, channel or search listing fetched from YouTube; a cached page is free. */
export const LISTING_PAGE_PRICE = 1;

/** A frame newly captured; stored frames are free. */
export const FRAME_PRICE = 1;

/** Translations and articles: credits per started hour of video. */
export const PER_STARTED_HOUR = 1;

/** "2 credits", "1 credit": prices in descriptions and labels. */
export const credits = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;

/**
 * Translations and articles cost PER_STARTED_HOUR per started hour of the video (61 minutes -> 2 hours), at least one hour.
 * Measured on the video's duration as YouTube reports it, or the transcript's end when that is unknown (0 for
 * live streams).
 */
export function hourlyPrice(durationSeconds: number): number {
  if (!Number.isFinite(durationSeconds) || durationSeconds <= 0) return PER_STARTED_HOUR;
  // Sub-second noise in reported durations (3600.0004 s) must not start another hour.
  return PER_STARTED_HOUR * Math.max(1, Math.ceil(Math.floor(durationSeconds) / 3600));
}

/**
 * Speech-to-text: credits per started minute of the audio transcribed (61 s -> 2 minutes), at least one minute.
 * Sub-second noise does not start a minute.
 */
export const SPEECH_PRICE_PER_MINUTE = 1;

export function speechPrice(seconds: number): number {
  if (!Number.isFinite(seconds) || seconds <= 0) return SPEECH_PRICE_PER_MINUTE;
  return Math.max(1, Math.ceil(Math.floor(seconds * 1000) / 60_000 - 1e-9)) * SPEECH_PRICE_PER_MINUTE;
}

/** The duration a price is measured on: the video's reported duration, else the transcript's. */
export const pricedDuration = (videoDuration: number | null | undefined, transcriptDuration: number): number =>
  videoDuration && videoDuration > 0 ? videoDuration : transcriptDuration;

/** The operations a batch runs over each of its videos. */
export type BatchOperationType = 'transcript' | 'article' | 'translation';

/** The transcript operations' modes: POST /subtitles's own (TRANSCRIPT_MODES). */
export type BatchTranscriptMode = TranscriptMode;

export interface BatchVideoPrice {
  /** Credits the 402 check counts per video. */
  perVideo: number;
  /** Whether perVideo is an upper bound (else an estimate a video may exceed). */
  exact: boolean;
  note: string;
}

const SPEECH_NOTE =
  `speech-to-text costs ${credits(SPEECH_PRICE_PER_MINUTE)} per started minute of audio, charged when its transcript is stored; ` +
  'a video’s length is known only once it is loaded, so each video is checked against the balance again before its speech-to-text job starts, ' +
  'and one the balance cannot cover by then fails with INSUFFICIENT_CREDITS, uncharged';

/**
 * What one video of a batch is checked against before the batch starts (the balance must cover it for every
 * video), and how the 402 and the descriptions say it. A transcript with captions costs at most TRANSCRIPT_PRICE.
 * Speech-to-text and articles or translations depend on the video's length, unknown before it is loaded: the check
 * counts a stated figure, not the worst case (captions for mode auto, as most videos have them; one minute of audio
 * for mode generate; one hour for an article or a translation), and every video is checked again on its own before its
 * work starts; one the balance cannot cover by then fails with INSUFFICIENT_CREDITS, uncharged.
 */
export const BATCH_VIDEO_PRICES: Record<Exclude<BatchOperationType, 'transcript'>, BatchVideoPrice> & {
  transcript: Record<BatchTranscriptMode, BatchVideoPrice>;
} = {
  transcript: {
    native: {
      perVideo: TRANSCRIPT_PRICE,
      exact: true,
      note: `${TRANSCRIPT_PRICE} per video; stored transcripts are free`,
    },
    auto: {
      perVideo: TRANSCRIPT_PRICE,
      exact: false,
      note: `${TRANSCRIPT_PRICE} per video with captions; a video without captions is transcribed by speech-to-text instead (the check counts ${TRANSCRIPT_PRICE} per video): ${SPEECH_NOTE}; stored transcripts are free`,
    },
    generate: {
      perVideo: speechPrice(60),
      exact: false,
      note: `the check counts ${credits(speechPrice(60))} (one minute) per video: ${SPEECH_NOTE}; stored transcripts are free`,
    },
  },
  article: {
    perVideo: TRANSCRIPT_PRICE + hourlyPrice(1),
    exact: false,
    note: `${TRANSCRIPT_PRICE + hourlyPrice(1)} per video of up to an hour: ${TRANSCRIPT_PRICE} for its transcript unless stored, ${PER_STARTED_HOUR} per started hour for the article; stored articles are free`,
  },
  translation: {
    perVideo: TRANSCRIPT_PRICE + hourlyPrice(1),
    exact: false,
    note: `${TRANSCRIPT_PRICE + hourlyPrice(1)} per video of up to an hour: ${TRANSCRIPT_PRICE} for its transcript unless stored, ${PER_STARTED_HOUR} per started hour for the translation; stored translations are free`,
  },
};

/**
 * The batch price of an operation (a transcript's by its mode, native by default in batches). Without a
 * speech-to-text engine, auto is captions only: its price is native's, exact.
 */
export function batchVideoPrice(
  op: { type: BatchOperationType; mode?: BatchTranscriptMode },
  speechAvailable: boolean,
): BatchVideoPrice {
  if (op.type !== 'transcript') return BATCH_VIDEO_PRICES[op.type];
  const mode = op.mode ?? BATCH_TRANSCRIPT_MODE;
  return BATCH_VIDEO_PRICES.transcript[mode === 'auto' && !speechAvailable ? 'native' : mode];
}

/**
 * What each priced procedure costs, by its tRPC path (the same operation on REST, tRPC and MCP), as the Price columns
 * of docs/api.md's operations table and docs/mcp.md's tools table say it (`npm run docs:generate` writes them from
 * here). A procedure not named here is free.
 */
export const OPERATION_COSTS: Record<string, string> = {
  'subtitles.get': `captions: ${TRANSCRIPT_PRICE} on a cache miss; speech-to-text: ${SPEECH_PRICE_PER_MINUTE} per started minute of audio; 0 when stored (one charge per transcript, on every route)`,
  'frames.capture': `${FRAME_PRICE} per frame newly captured`,
  'frames.get': `${FRAME_PRICE} per frame newly captured`,
  'transcripts.translate': `${PER_STARTED_HOUR} per started hour of video`,
  'summaries.create': `${PER_STARTED_HOUR} per started hour (+${TRANSCRIPT_PRICE} if the transcript must be extracted)`,
  'listing.playlist': `${LISTING_PAGE_PRICE} per page fetched from YouTube, cached pages free`,
  'listing.channel': `${LISTING_PAGE_PRICE} per page fetched from YouTube, cached pages free`,
  'listing.search': `${LISTING_PAGE_PRICE} per page fetched from YouTube, cached pages free`,
  'batches.create':
    `per video that succeeds, as its single-video operation (transcript ${TRANSCRIPT_PRICE} for captions or ` +
    `${SPEECH_PRICE_PER_MINUTE} per started minute of audio for speech-to-text, article or translation ` +
    `${PER_STARTED_HOUR} per started hour + ${TRANSCRIPT_PRICE} for an extracted transcript; 0 when stored); failures free`,
  'batches.cancel': `free (cancelled videos are never charged); a listing batch that ends with no video charged pays its listing pages, ${LISTING_PAGE_PRICE} per page`,
  'watches.create': `free; each new video's transcript (transcripts: true) ${TRANSCRIPT_PRICE} as POST /subtitles`,
};
