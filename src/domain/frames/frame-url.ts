import { createHmac, timingSafeEqual } from 'node:crypto';

export const FRAME_URL_TTL_S = 24 * 3600;

const sign = (secret: string, payload: string) => createHmac('sha256', secret).update(payload).digest('base64url');

/** A URL for a stored frame that works in an <img>: no headers, expiring, unforgeable. */
export function signedFrameUrl(
  publicUrl: string,
  secret: string,
  f: { videoId: string; tMs: number; width: number },
  now = Date.now(),
): string {
  const exp = Math.floor(now / 1000) + FRAME_URL_TTL_S;
  const path = `/frames/${f.videoId}/${f.tMs}/${f.width}.jpg`;
  return `${publicUrl}${path}?exp=${exp}&sig=${sign(secret, `${path}:${exp}`)}`;
}

export function verifyFramePath(
  secret: string,
  path: string,
  exp: string | undefined,
  sig: string | undefined,
  now = Date.now(),
): boolean {
  if (!exp || !sig || !/^\d+$/.test(exp) || Number(exp) * 1000 < now) return false;
  const expected = Buffer.from(sign(secret, `${path}:${exp}`));
  const given = Buffer.from(sig);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export const frameBlobKey = (videoId: string, tMs: number, width: number) => `frame/${videoId}/${tMs}/${width}.jpg`;
