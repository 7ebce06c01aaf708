// Turns what a caller gives us (a YouTube URL in any of its shapes, or a bare id) into the 11-character video id.
// Hosts are matched exactly against a short list: a suffix or substring check would let
// `youtube.com.evil.com` or `evil.com/watch?v=...` through, and the id must come from where YouTube puts it.
import { createHash } from 'node:crypto';
import { ServiceError } from '../errors.ts';

/** An 11-character YouTube video id; usable as `z.string().regex(VIDEO_ID_PATTERN)`. */
export const VIDEO_ID_PATTERN = /^[A-Za-z0-9_-]{11}$/;
/** The id a direct media URL is stored and answered under: `media-` and 24 hex digits of a SHA-256 of its account and it. */
const MEDIA_ID_PATTERN = /^media-[0-9a-f]{24}$/;
export const isMediaId = (id: string) => MEDIA_ID_PATTERN.test(id);
// The account is part of the id: a media URL may be a private link, and what is made from it is its giver's alone.
export const mediaIdOf = (url: string, accountId: string) =>
  `media-${createHash('sha256').update(`${accountId}\n${url}`).digest('hex').slice(0, 24)}`;

/** A YouTube video, or a direct media URL (`mediaUrl`, normalised) with the id it is stored under. */
export interface VideoRef {
  videoId: string;
  mediaUrl?: string;
}

const WATCH_HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com', 'music.youtube.com']);
const SHORT_HOSTS = new Set(['youtu.be', 'www.youtu.be']);
const NOCOOKIE_HOSTS = new Set(['youtube-nocookie.com', 'www.youtube-nocookie.com']);
/** Path prefixes whose next segment is the id: /shorts/ID, /embed/ID, /live/ID, /v/ID, /e/ID. */
const ID_PATH_PREFIXES = new Set(['shorts', 'embed', 'live', 'v', 'e']);

const invalid = (message: string) => new ServiceError('INVALID_REQUEST', message);

export function parseVideoRef(ref: { url?: string | null; videoId?: string | null }): string {
  const url = ref.url?.trim() || undefined;
  const videoId = ref.videoId?.trim() || undefined;
  if (url && videoId) throw invalid('Give either url or videoId, not both');
  if (videoId) {
    // A media id answered for a direct media URL before: it names what was stored for that URL.
    if (MEDIA_ID_PATTERN.test(videoId)) return videoId;
    if (!VIDEO_ID_PATTERN.test(videoId)) {
      throw invalid(`videoId "${clip(videoId)}" is not a YouTube video id (11 characters: letters, digits, - and _)`);
    }
    return videoId;
  }
  if (!url) throw invalid('Either url or videoId is required');
  if (VIDEO_ID_PATTERN.test(url)) return url;
  return idFromUrl(url);
}

/**
 * parseVideoRef for the operations that also take a direct media URL (transcripts, frames, video info): a URL on
 * any other host than YouTube's is a media URL (http or https, no credentials; whether it may be fetched is the
 * media gateway's decision).
 */
export function parseVideoOrMediaRef(
  ref: { url?: string | null; videoId?: string | null },
  accountId: string,
): VideoRef {
  const url = ref.url?.trim();
  if (url && !ref.videoId?.trim() && !VIDEO_ID_PATTERN.test(url)) {
    const parsed = parseUrl(url);
    const host = parsed.hostname.toLowerCase().replace(/\.$/, '');
    const youtube = SHORT_HOSTS.has(host) || WATCH_HOSTS.has(host) || NOCOOKIE_HOSTS.has(host);
    if (!youtube && /^[a-z][a-z0-9+.-]*:/i.test(url)) {
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
        throw invalid(`URL scheme "${parsed.protocol}" is not supported; give an https media URL or a YouTube URL`);
      if (parsed.username || parsed.password) throw invalid('Media URLs must not contain a user name or password');
      parsed.hash = '';
      return { videoId: mediaIdOf(parsed.href, accountId), mediaUrl: parsed.href };
    }
  }
  return { videoId: parseVideoRef(ref) };
}

function idFromUrl(raw: string): string {
  const parsed = parseUrl(raw);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw invalid(`URL scheme "${parsed.protocol}" is not supported; use an http(s) YouTube URL`);
  }
  // user:pass@ is a classic way to make `https://youtube.com@evil.com/...` look like YouTube.
  if (parsed.username || parsed.password) throw invalid('YouTube URLs must not contain a user name or password');
  if (parsed.port) throw invalid(`URL port ${parsed.port} is not a YouTube port`);
  const host = parsed.hostname.toLowerCase().replace(/\.$/, '');
  const segments = parsed.pathname.split('/').filter(Boolean);

  let id: string | undefined;
  if (SHORT_HOSTS.has(host)) {
    id = segments[0];
  } else if (WATCH_HOSTS.has(host) || NOCOOKIE_HOSTS.has(host)) {
    const [first, second] = segments;
    if (first === 'watch' && WATCH_HOSTS.has(host)) id = parsed.searchParams.get('v') ?? second;
    else if (first && ID_PATH_PREFIXES.has(first)) id = second;
  } else {
    throw invalid(`"${clip(host)}" is not a YouTube host; give a youtube.com or youtu.be URL, or a videoId`);
  }
  if (!id)
    throw invalid('The URL does not contain a video id (expected watch?v=, youtu.be/, /shorts/, /embed/ or /live/)');
  if (!VIDEO_ID_PATTERN.test(id)) throw invalid(`"${clip(id)}" in the URL is not a valid YouTube video id`);
  return id;
}

function parseUrl(raw: string): URL {
  // Scheme-less forms people paste: "youtube.com/watch?v=...", "youtu.be/...", "//www.youtube.com/...".
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(raw) ? raw : `https://${raw.replace(/^\/\//, '')}`;
  try {
    return new URL(withScheme);
  } catch {
    throw invalid(`"${clip(raw)}" is not a valid URL or video id`);
  }
}

const clip = (s: string) => (s.length > 80 ? `${s.slice(0, 77)}...` : s);
