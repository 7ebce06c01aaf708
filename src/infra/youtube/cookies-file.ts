// The operator's signed-in identity for age-gated videos, read from a Netscape cookies.txt (what browser extensions
// and yt-dlp's --cookies write): YouTube's cookies as one Cookie header's value. Read once at start; an unreadable
// file or one without YouTube cookies stops the start with a message, rather than failing each age-gated video.
import { readFileSync } from 'node:fs';

/** "name=value; ..." for the cookies of youtube.com and its subdomains in a cookies.txt's text. */
export function youtubeCookieHeader(text: string): string {
  const pairs: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    // curl and browsers mark HttpOnly cookies with this prefix on an otherwise normal line.
    const line = raw.startsWith('#HttpOnly_') ? raw.slice('#HttpOnly_'.length) : raw;
    if (!line.trim() || line.startsWith('#')) continue;
    const fields = line.split('\t');
    if (fields.length < 7) continue;
    const domain = fields[0]!.replace(/^\./, '').toLowerCase();
    if (domain !== 'youtube.com' && !domain.endsWith('.youtube.com')) continue;
    pairs.push(`${fields[5]}=${fields.slice(6).join('\t')}`);
  }
  return pairs.join('; ');
}

export function readYoutubeCookies(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`YOUTUBE_AGE_GATE_COOKIES_FILE: cannot read ${path} (${(e as Error).message})`);
  }
  const header = youtubeCookieHeader(text);
  if (!header) throw new Error(`YOUTUBE_AGE_GATE_COOKIES_FILE: ${path} has no youtube.com cookies (Netscape format)`);
  return header;
}
