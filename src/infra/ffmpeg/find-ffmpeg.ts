import { accessSync, constants, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';

export interface FoundFfmpeg {
  path: string;
  source: 'option' | 'path' | 'package';
}

/**
 * The ffmpeg to run: `ffmpegPath` (config FFMPEG_PATH) if given, else `ffmpeg` on `pathEnv` (the caller's PATH),
 * else the binary inside @ffmpeg-installer/ffmpeg, a 2018 build kept only as a fallback.
 */
export function findFfmpeg(opts: { ffmpegPath?: string | undefined; pathEnv?: string | undefined }): FoundFfmpeg {
  if (opts.ffmpegPath) {
    if (!isExecutable(opts.ffmpegPath)) throw new Error(`FFMPEG_PATH is not an executable file: ${opts.ffmpegPath}`);
    return { path: opts.ffmpegPath, source: 'option' };
  }
  for (const dir of (opts.pathEnv ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, 'ffmpeg');
    if (isExecutable(candidate)) return { path: candidate, source: 'path' };
  }
  try {
    const pkg = createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string };
    if (isExecutable(pkg.path)) return { path: pkg.path, source: 'package' };
  } catch {
    // the package has no binary for this platform
  }
  throw new Error('ffmpeg not found: set FFMPEG_PATH or install ffmpeg');
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
