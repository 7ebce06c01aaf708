import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { findFfmpeg } from './find-ffmpeg.ts';

describe('findFfmpeg', () => {
  const dir = mkdtempSync(join(tmpdir(), 'find-ffmpeg-'));
  const fake = join(dir, 'ffmpeg');
  writeFileSync(fake, '#!/bin/sh\n');
  chmodSync(fake, 0o755);

  it('prefers the explicit path', () => {
    expect(findFfmpeg({ ffmpegPath: fake, pathEnv: '/usr/bin' })).toEqual({ path: fake, source: 'option' });
  });

  it('refuses an explicit path that is not executable', () => {
    expect(() => findFfmpeg({ ffmpegPath: join(dir, 'missing') })).toThrow(/FFMPEG_PATH/);
  });

  it('then searches the PATH it is given', () => {
    expect(findFfmpeg({ pathEnv: `/nonexistent:${dir}` })).toEqual({ path: fake, source: 'path' });
  });

  it('falls back to the packaged binary', () => {
    const found = findFfmpeg({ pathEnv: '' });
    expect(found.source).toBe('package');
    expect(found.path).toMatch(/@ffmpeg-installer/);
  });
});
