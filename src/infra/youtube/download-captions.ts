// Downloads one timedtext track and parses whatever format came back. We ask for json3; XML (srv3/srv1) and WebVTT
// are parsed too, since a relay or an older URL may answer in those.
import { ServiceError } from '../../domain/errors.ts';
import type { WordedSegment } from '../../domain/transcripts/words.ts';
import type { OutcomeKind } from '../../domain/youtube/egress.ts';
import { parseJson3 } from './parse-json3.ts';
import { isTimedTextXml, parseTimedTextXml } from './parse-srv3.ts';
import { isWebVtt, parseVtt } from './parse-vtt.ts';
import { classifyHtmlPage, looksLikeHtml } from './watch-page.ts';
import { YOUTUBE_ORIGIN } from './youtube-fetch.ts';

/** A download that another client's URL for the same track may get right; the caller falls back on it. */
export class RetryableCaptionError extends ServiceError {
  /** As counted per client and identity. */
  readonly kind: OutcomeKind;
  constructor(message: string, kind: OutcomeKind = 'error') {
    super('EXTRACTION_FAILED', message);
    this.kind = kind;
  }
}

export async function downloadCaptions(
  fetch: typeof globalThis.fetch,
  ref: string,
  signal?: AbortSignal,
): Promise<WordedSegment[]> {
  const url = new URL(ref, YOUTUBE_ORIGIN);
  url.searchParams.set('fmt', 'json3');
  // Never YouTube's own translation: `tlang` needs cookies on some addresses now (OpenTubeX#1126); we translate.
  url.searchParams.delete('tlang');
  let response: Response;
  let body: string;
  try {
    response = await fetch(url, { signal, headers: { 'Accept-Language': 'en-US,en;q=0.9' } });
    body = await response.text();
  } catch (e) {
    signal?.throwIfAborted();
    throw new RetryableCaptionError(
      `Caption download failed: ${e instanceof Error ? e.message : String(e)}`,
      'network',
    );
  }
  if (response.status === 429)
    throw new RetryableCaptionError('YouTube is rate-limiting caption downloads (HTTP 429)', 'rate_limited');
  if (!response.ok) throw new RetryableCaptionError(`Caption download failed with HTTP ${response.status}`);
  // An empty 200 is what YouTube answers when the URL needs a PO token (exp=xpe): another client's URL may work.
  if (body.trim() === '')
    throw new RetryableCaptionError(
      'YouTube returned an empty caption file (the URL needs a PO token)',
      'empty_captions',
    );
  return parseCaptionBody(body);
}

export function parseCaptionBody(body: string): WordedSegment[] {
  try {
    const text = body.replace(/^\ufeff/, '');
    if (text.trimStart().startsWith('{')) return parseJson3(text);
    if (isTimedTextXml(text)) return parseTimedTextXml(text);
    if (isWebVtt(text)) return parseVtt(text);
  } catch (e) {
    throw new ServiceError(
      'EXTRACTION_FAILED',
      `Could not read the caption file YouTube returned (${e instanceof Error ? e.message : String(e)})`,
    );
  }
  if (looksLikeHtml(body)) {
    const message = classifyHtmlPage(body).message;
    throw new RetryableCaptionError(message, /rate-limiting/.test(message) ? 'rate_limited' : 'error');
  }
  throw new ServiceError('EXTRACTION_FAILED', 'YouTube returned captions in an unknown format');
}
