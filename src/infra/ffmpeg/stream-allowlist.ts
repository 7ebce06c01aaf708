import { ServiceError } from '../../domain/errors.ts';

// Hosts YouTube serves media from: streams (googlevideo), storyboards and thumbnails (ytimg), and youtube.com itself.
const ALLOWED_HOST_SUFFIXES = ['.googlevideo.com', '.ytimg.com', '.youtube.com'] as const;

export interface StreamAllowlist {
  /** Exact origins also allowed, any scheme or port (the operator's YOUTUBE_BASE_URL; loopback in tests). */
  extraOrigins: readonly string[];
}

/**
 * Returns the URL ffmpeg or fetch may open, normalised (pass `href` on, never the raw string, so what was checked is
 * what is opened). Throws FRAME_FAILED, not INVALID_REQUEST: the URL comes from upstream (the player response), not
 * from the caller, so a refusal is a failure to capture rather than a bad request. Messages never echo the URL
 * (stream URLs carry signatures and the server's IP).
 */
export function assertAllowedStreamUrl(raw: string, allow: StreamAllowlist): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused('not an absolute URL');
  }
  if (normalisedOrigins(allow.extraOrigins).has(url.origin) && url.username === '' && url.password === '') {
    return url;
  }
  if (url.protocol !== 'https:') throw refused(`scheme ${url.protocol} not allowed`);
  if (url.username !== '' || url.password !== '') throw refused('credentials in URL');
  if (url.port !== '') throw refused('non-default port');
  // WHATWG URL has lowercased the host and turned IP literals into dotted/bracketed form, neither of which can end
  // in an allowed suffix; a trailing dot ("x.googlevideo.com.") fails too, which is fine (fail closed).
  const host = url.hostname;
  if (!ALLOWED_HOST_SUFFIXES.some((s) => host.endsWith(s) && host.length > s.length)) {
    throw refused('host not allowed');
  }
  return url;
}

export function isAllowedStreamUrl(raw: string, allow: StreamAllowlist): boolean {
  try {
    assertAllowedStreamUrl(raw, allow);
    return true;
  } catch {
    return false;
  }
}

function normalisedOrigins(origins: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const o of origins) {
    try {
      const origin = new URL(o).origin;
      if (origin !== 'null') out.add(origin); // file:, data: and the like have an opaque origin
    } catch {
      // an unparsable origin allows nothing
    }
  }
  return out;
}

const refused = (why: string) => new ServiceError('FRAME_FAILED', `frame source refused: ${why}`);
