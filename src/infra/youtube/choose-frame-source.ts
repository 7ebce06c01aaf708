// Where frames come from: the smallest video-only stream at least as wide as asked (ffmpeg seeks in it), or the
// storyboard sprites when no stream URL can be had. When every adaptive format is SABR-only (no URL, no cipher: what
// some sessions get from MWEB and the web clients, yt-dlp/yt-dlp#17666), the progressive itag 18 (360p, video and
// audio in one mp4) serves frames and audio instead.
import type { YT } from 'youtubei.js';
import { ServiceError } from '../../domain/errors.ts';
import type { FrameSource } from '../../domain/ports.ts';
import { parseStoryboardSpec } from './parse-storyboard-spec.ts';
import type { RawPlayerResponse } from './player-response.ts';

type StreamingData = NonNullable<YT.VideoInfo['streaming_data']>;
type Format = StreamingData['adaptive_formats'][number];

const hasUrl = (f: Format) => !!(f.url || f.signature_cipher || f.cipher);

/** The progressive 360p format (itag 18), when it has a URL: what is left when the adaptive ones are SABR-only. */
function progressive(data: StreamingData | undefined): Format | undefined {
  return data?.formats.find((f) => f.itag === 18 && hasUrl(f));
}

/** The video format frames are taken from: adaptive when any has a URL, else itag 18. */
export function chooseFrameFormat(data: StreamingData | undefined, width: number): Format | undefined {
  return chooseVideoFormat(data?.adaptive_formats ?? [], width) ?? progressive(data);
}

/** The format audio is decoded from: adaptive audio-only when any has a URL, else itag 18. */
export function chooseSpeechFormat(data: StreamingData | undefined): Format | undefined {
  return chooseAudioFormat(data?.adaptive_formats ?? []) ?? progressive(data);
}

/** What an audio track is not, when it is the one spoken: a dub (YouTube's or an AI's), a description, a second mix. */
const notSpoken = (f: Format) => f.is_dubbed || f.is_auto_dubbed || f.is_descriptive || f.is_secondary;

/**
 * The formats of the audio track actually spoken. YouTube marks as default the track in the viewer's language, and
 * that is an AI dub at times (acont=dubbed-auto in the URL's xtags): the track marked original (acont=original, or
 * the "<lang>.4" track id yt-dlp reads as original) wins over the default, and a default that is a dub never counts.
 */
function spokenTrack(formats: Format[]): Format[] {
  const original = formats.filter(
    (f) => f.audio_track && !notSpoken(f) && (f.is_original || /\.4$/.test(f.audio_track.id ?? '')),
  );
  if (original.length > 0) return original;
  const defaults = formats.filter((f) => f.audio_track?.audio_is_default && !notSpoken(f));
  if (defaults.length > 0) return defaults;
  const undubbed = formats.filter((f) => !notSpoken(f));
  return undubbed.length > 0 ? undubbed : formats;
}

/** Video-only mp4/webm formats, the narrowest one with width >= `width`, else the widest. */
function chooseVideoFormat(formats: Format[], width: number): Format | undefined {
  // Adaptive video formats are video-only; has_video is unreliable (it keys on qualityLabel).
  const candidates = formats
    .filter((f) => !f.has_audio && /^video\/(mp4|webm)/.test(f.mime_type) && (f.width ?? 0) > 0)
    .filter(hasUrl)
    // Plain URLs before ciphered ones of the same width: they need no player script.
    .sort((a, b) => (a.width ?? 0) - (b.width ?? 0) || Number(!a.url) - Number(!b.url));
  return candidates.find((f) => (f.width ?? 0) >= width) ?? candidates.at(-1);
}

/** Speech needs little: Opus at about 50 kbit/s is plenty, and any format above this rate is wasted download. */
const ADEQUATE_AUDIO_BITRATE = 48_000;

/**
 * The audio-only format to transcribe: the original audio track when the video has dubbed ones; the smallest format
 * at or above an adequate bitrate, else the best below it; plain URLs before ciphered ones.
 */
function chooseAudioFormat(formats: Format[]): Format | undefined {
  const all = formats.filter((f) => /^audio\/(mp4|webm)/.test(f.mime_type) && hasUrl(f));
  const candidates = spokenTrack(all);
  const rate = (f: Format) => f.average_bitrate ?? f.bitrate ?? 0;
  const sorted = [...candidates].sort((a, b) => rate(a) - rate(b) || Number(!a.url) - Number(!b.url));
  return sorted.find((f) => rate(f) >= ADEQUATE_AUDIO_BITRATE) ?? sorted.at(-1);
}

/** The storyboard level with the largest thumbnails, as a FrameSource; undefined when the response has none. */
export function storyboardSource(
  raw: RawPlayerResponse,
  durationSeconds: number,
  rewrite: (url: string) => string,
): FrameSource | undefined {
  const spec = raw.storyboards?.playerStoryboardSpecRenderer?.spec;
  if (!spec) return undefined;
  const best = parseStoryboardSpec(spec).sort((a, b) => b.thumbWidth - a.thumbWidth)[0];
  if (!best || best.count === 0) return undefined;
  return {
    kind: 'storyboard',
    sheetUrl: (index) => rewrite(best.sheetUrl(index)),
    thumbWidth: best.thumbWidth,
    thumbHeight: best.thumbHeight,
    columns: best.columns,
    rows: best.rows,
    interval: best.interval || (durationSeconds > 0 ? durationSeconds / best.count : 0),
    count: best.count,
  };
}

export function noFrameSource(videoId: string): ServiceError {
  return new ServiceError('EXTRACTION_FAILED', `No video stream or storyboard is available for ${videoId}`);
}
