import { createHash, randomBytes } from 'node:crypto';

const KEY_PREFIX = 'sk_';
/** Characters shown in listings: enough to tell keys apart, far too few to guess the rest. */
const DISPLAY_CHARS = 11;

/** A new key: `sk_` + 32 base62 characters from 24 random bytes (192 bits). */
export function generateApiKey(): { key: string; prefix: string; hash: string } {
  const key =
    KEY_PREFIX +
    randomBytes(24)
      .toString('base64url')
      .replace(/[-_]/g, (c) => (c === '-' ? 'A' : 'B'));
  return { key, prefix: key.slice(0, DISPLAY_CHARS), hash: hashApiKey(key) };
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

const KEY_SHAPED = /sk_[A-Za-z0-9]{16,}/g;

/** Masks anything shaped like a key, for text that is logged (a key pasted into a URL path, say). */
export function redactKeys(text: string): string {
  return text.replace(KEY_SHAPED, (k) => `${k.slice(0, DISPLAY_CHARS)}…[redacted]`);
}

/** Bearer or x-api-key; the two forms are equivalent. */
export function readApiKey(headers: Headers): string | null {
  const auth = headers.get('authorization');
  if (auth) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    return m ? m[1]! : null;
  }
  const key = headers.get('x-api-key');
  return key ? key.trim() : null;
}
