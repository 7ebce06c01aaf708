// What "valid Unicode" means for text we are sent, in one place: UTF-8 bytes that decode strictly, and JSON whose
// \u escapes never leave a lone surrogate (JSON.parse makes one into a string no database can store, and Node's
// UTF-8 encoder silently turns it into U+FFFD). Checked without parsing: the edge (src/bridges/unicode-edge.ts) and
// the OAuth readers (src/bridges/oauth/oauth-input.ts) use these.

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The text of UTF-8 bytes; undefined when they are not valid UTF-8 (a stray byte, an overlong form, an encoded surrogate). */
export function decodeUtf8(bytes: ArrayBuffer | Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** In unicode mode a paired surrogate is one code point: only a lone one matches. */
const LONE_SURROGATE = /\p{Cs}/u;

/** Whether a string holds a lone surrogate (text that is not well-formed Unicode). */
export const hasLoneSurrogate = (s: string): boolean => LONE_SURROGATE.test(s);

const HEX4 = /^[0-9a-fA-F]{4}$/;
const hex4 = (text: string, at: number): number => {
  const digits = text.slice(at, at + 4);
  return HEX4.test(digits) ? Number.parseInt(digits, 16) : -1;
};
const isHigh = (u: number) => u >= 0xd800 && u <= 0xdbff;
const isLow = (u: number) => u >= 0xdc00 && u <= 0xdfff;

/**
 * Whether JSON text escapes a lone surrogate (`"\ud800"`, a low one first, a high one not followed by a low one).
 * One pass over its backslashes: text without any (most bodies) costs one indexOf. Text decoded from valid UTF-8
 * holds no raw surrogate, so escapes are the only way one gets in.
 */
export function escapesLoneSurrogate(text: string): boolean {
  for (let i = text.indexOf('\\'); i >= 0; i = text.indexOf('\\', i)) {
    if (text.charCodeAt(i + 1) !== 0x75 /* u */) {
      i += 2; // any other escape, `\\` included: the next backslash starts a new one
      continue;
    }
    const unit = hex4(text, i + 2);
    if (isLow(unit)) return true;
    if (!isHigh(unit)) {
      i += 6;
      continue;
    }
    if (text.charCodeAt(i + 6) !== 0x5c || text.charCodeAt(i + 7) !== 0x75 || !isLow(hex4(text, i + 8))) return true;
    i += 12;
  }
  return false;
}
