import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { createFsBlobStore, fileNameFor } from './fs-blob-store.ts';

const root = mkdtempSync(join(tmpdir(), 'fs-blob-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('createFsBlobStore', () => {
  it('stores and returns bytes with their MIME type, creating the directory', async () => {
    const store = createFsBlobStore(join(root, 'a', 'b'));
    const bytes = Buffer.from([0xff, 0xd8, 0x0a, 0x00, 0x0a, 0xff, 0xd9]); // newlines in the payload are fine
    await store.put('frames/dQw4w9WgXcQ/12.5-640.jpg', bytes, 'image/jpeg');
    expect(await store.get('frames/dQw4w9WgXcQ/12.5-640.jpg')).toEqual({ bytes, mimeType: 'image/jpeg' });
  });

  it('answers null for a missing key', async () => {
    expect(await createFsBlobStore(join(root, 'empty')).get('nope')).toBeNull();
  });

  it('overwrites, leaving no temporary files behind', async () => {
    const dir = join(root, 'overwrite');
    const store = createFsBlobStore(dir);
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.put('k', Buffer.from(`v${i}`), 'text/plain')));
    await store.put('k', Buffer.from('last'), 'text/plain');
    expect((await store.get('k'))?.bytes.toString()).toBe('last');
    expect(readdirSync(dir)).toEqual(['k']);
  });

  it('keeps hostile keys inside its directory', async () => {
    const dir = join(root, 'jail');
    const store = createFsBlobStore(join(dir, 'blobs'));
    for (const key of ['../escape', '..', '.', '/etc/passwd', 'a\\..\\b', '.tmp-x', 'x\0y', 'é/ü']) {
      await store.put(key, Buffer.from(key), 'text/plain');
      expect((await store.get(key))?.bytes.toString()).toBe(key);
    }
    expect(readdirSync(dir)).toEqual(['blobs']);
    expect(readdirSync(join(dir, 'blobs')).every((n) => /^[A-Za-z0-9_%-]+$/.test(n))).toBe(true);
  });

  it('tells apart keys that differ only in escaped characters, and handles long keys', async () => {
    const store = createFsBlobStore(join(root, 'distinct'));
    const keys = ['a/b', 'a%2Fb', 'a_b', 'A/b', 'x'.repeat(300), `${'x'.repeat(299)}y`];
    await Promise.all(keys.map((k) => store.put(k, Buffer.from(k), 'text/plain')));
    for (const k of keys) expect((await store.get(k))?.bytes.toString()).toBe(k);
  });

  it('refuses an empty key and a MIME type with a newline', async () => {
    const store = createFsBlobStore(join(root, 'bad'));
    await expect(store.put('', Buffer.alloc(0), 'text/plain')).rejects.toThrow(/empty/);
    await expect(store.put('k', Buffer.alloc(0), 'text/plain\nx')).rejects.toThrow(/MIME/);
  });
});

describe('fileNameFor', () => {
  it('escapes everything outside [A-Za-z0-9_-]', () => {
    expect(fileNameFor('frames/ab-c_1.jpg')).toBe('frames%2Fab-c_1%2Ejpg');
    expect(fileNameFor('%')).toBe('%25');
  });
});
