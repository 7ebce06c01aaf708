import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { BlobStore } from '../../domain/ports.ts';

/**
 * Blobs as files in `dir`, one per key. A file holds the MIME type, a newline, then the bytes, so one rename
 * publishes both at once: a reader sees the old blob or the new one, never half of either.
 */
export function createFsBlobStore(dir: string): BlobStore {
  let ready: Promise<unknown> | undefined;
  const ensureDir = () => (ready ??= mkdir(dir, { recursive: true }));

  return {
    async put(key, bytes, mimeType) {
      if (!/^[\x21-\x7e]+$/.test(mimeType)) throw new TypeError(`bad MIME type for blob ${JSON.stringify(key)}`);
      await ensureDir();
      const tmp = join(dir, `.tmp-${randomBytes(8).toString('hex')}`);
      try {
        await writeFile(tmp, Buffer.concat([Buffer.from(`${mimeType}\n`), bytes]));
        await rename(tmp, join(dir, fileNameFor(key)));
      } catch (err) {
        await rm(tmp, { force: true });
        throw err;
      }
    },
    async get(key) {
      let data: Buffer;
      try {
        data = await readFile(join(dir, fileNameFor(key)));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
      const newline = data.indexOf(0x0a);
      if (newline < 0) throw new Error(`corrupt blob file for ${JSON.stringify(key)}`);
      return { mimeType: data.subarray(0, newline).toString('latin1'), bytes: data.subarray(newline + 1) };
    },
  };
}

/**
 * A file name only ever made of [A-Za-z0-9_-] and %XX escapes (so no separators, no "." or "..", no hidden or
 * temporary names), one-to-one with keys. Keys too long for a file name become "~" plus their SHA-256, which no
 * escaped name can start with.
 */
export function fileNameFor(key: string): string {
  if (key.length === 0) throw new TypeError('empty blob key');
  const escaped = Array.from(Buffer.from(key, 'utf8'), (b) =>
    /[A-Za-z0-9_-]/.test(String.fromCharCode(b))
      ? String.fromCharCode(b)
      : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
  ).join('');
  return escaped.length <= 200 ? escaped : `~${createHash('sha256').update(key).digest('hex')}`;
}
