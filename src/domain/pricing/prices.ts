// Every price of the service, in credits. Procedures, their OpenAPI and MCP descriptions, and the website's
// "this will cost" labels read them from here.

/** A transcript extracted from YouTube; stored ones (and further pages, other formats) are free. */
export const SUBTITLES_PRICE = 2;

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
export const STT_PRICE_PER_MINUTE = 1;

export function speechPrice(seconds: number): number {
  if (!Number.isFinite(seconds) || seconds <= 0) return STT_PRICE_PER_MINUTE;
  return Math.max(1, Math.ceil(Math.floor(seconds * 1000) / 60_000 - 1e-9)) * STT_PRICE_PER_MINUTE;
}

/** The duration a price is measured on: the video's reported duration, else the transcript's. */
export const pricedDuration = (videoDuration: number | null | undefined, transcriptDuration: number): number =>
  videoDuration && videoDuration > 0 ? videoDuration : transcriptDuration;

/** The operations a batch runs over each of its videos. */
export type BatchOperationType = 'transcript' | 'article' | 'translation';

/**
 * What one video of a batch is checked against before the batch starts (the balance must cover it for every
 * video), and how the 402 and the descriptions say it. A transcript costs at most SUBTITLES_PRICE. An article or a
 * translation costs its transcript (when not stored) plus PER_STARTED_HOUR per started hour: the check counts one
 * hour, as a video's length is not known before it is loaded; a longer video the balance cannot cover by then
 * fails on its own with INSUFFICIENT_CREDITS, uncharged.
 */
export const BATCH_VIDEO_PRICES: Record<BatchOperationType, { perVideo: number; exact: boolean; note: string }> = {
  transcript: { perVideo: SUBTITLES_PRICE, exact: true, note: `${SUBTITLES_PRICE} per video; stored transcripts are free` },
  article: {
    perVideo: SUBTITLES_PRICE + hourlyPrice(1),
    exact: false,
    note: `${SUBTITLES_PRICE + hourlyPrice(1)} per video of up to an hour: ${SUBTITLES_PRICE} for its transcript unless stored, ${PER_STARTED_HOUR} per started hour for the article; stored articles are free`,
  },
  translation: {
    perVideo: SUBTITLES_PRICE + hourlyPrice(1),
    exact: false,
    note: `${SUBTITLES_PRICE + hourlyPrice(1)} per video of up to an hour: ${SUBTITLES_PRICE} for its transcript unless stored, ${PER_STARTED_HOUR} per started hour for the translation; stored translations are free`,
  },
};
