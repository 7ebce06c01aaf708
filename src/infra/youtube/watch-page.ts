// The desktop watch page (GET /watch?v=ID) as a last-resort source, and the HTML pages YouTube serves instead of an
// answer (captcha after rate limiting, EU cookie consent). Its caption URLs carry exp=xpe and need a PO token, but it
// still answers metadata and playability when every InnerTube client is refused.
import { ServiceError } from '../../domain/errors.ts';
import { unwrapPlayerResponse, type RawPlayerResponse } from './player-response.ts';

const MARKERS = [
  'var ytInitialPlayerResponse = ',
  'window["ytInitialPlayerResponse"] = ',
  'ytInitialPlayerResponse = ',
];

/** The JSON object embedded after `var ytInitialPlayerResponse = `, or undefined when the page has none. */
export function extractPlayerResponse(html: string): RawPlayerResponse | undefined {
  for (const marker of MARKERS) {
    const at = html.indexOf(marker);
    if (at < 0) continue;
    const json = balancedObject(html, html.indexOf('{', at + marker.length));
    if (!json) continue;
    try {
      return unwrapPlayerResponse(JSON.parse(json));
    } catch {
      // a marker inside a string literal, or truncated JSON; try the next marker
    }
  }
  return undefined;
}

/** The page's ytInitialData (the /next answer embedded in the page: chapters live there), if present. */
export function extractInitialData(html: string): unknown {
  for (const marker of ['var ytInitialData = ', 'window["ytInitialData"] = ']) {
    const at = html.indexOf(marker);
    const json = at < 0 ? undefined : balancedObject(html, html.indexOf('{', at + marker.length));
    if (!json) continue;
    try {
      return JSON.parse(json);
    } catch {
      // try the next marker
    }
  }
  return undefined;
}

/** Why an HTML page that is not a watch page cannot be used; always EXTRACTION_FAILED (retryable upstream). */
export function classifyHtmlPage(html: string, status?: number): ServiceError {
  if (status === 429 || /das_captcha|g-recaptcha|unusual traffic|www\.google\.com\/sorry/i.test(html)) {
    return new ServiceError(
      'EXTRACTION_FAILED',
      'YouTube is rate-limiting this server (it answered with a captcha page)',
    );
  }
  if (/consent\.youtube\.com|consent\.google\.com/i.test(html)) {
    return new ServiceError('EXTRACTION_FAILED', 'YouTube answered with a cookie-consent page instead of the video');
  }
  return new ServiceError(
    'EXTRACTION_FAILED',
    `YouTube answered with an unexpected page${status ? ` (HTTP ${status})` : ''}`,
  );
}

export const looksLikeHtml = (body: string) => /^\s*(?:<!doctype html|<html)/i.test(body);

/** The text of the {...} starting at `start`, matching braces outside JSON strings. */
export function balancedObject(text: string, start: number): string | undefined {
  if (start < 0 || text[start] !== '{') return undefined;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return text.slice(start, i + 1);
  }
  return undefined;
}
