import { execFile } from 'node:child_process';

export interface FfmpegCapabilities {
  /** The http protocol has `max_redirects` (FFmpeg 5.1.x Debian builds and 7+); the 2018 fallback has not. */
  maxRedirects: boolean;
}

/** Asks the binary which http options it has; unknown input options make ffmpeg refuse to open the input. */
export function probeFfmpeg(ffmpegPath: string): Promise<FfmpegCapabilities> {
  return new Promise((resolve) => {
    execFile(ffmpegPath, ['-hide_banner', '-h', 'protocol=http'], { timeout: 10_000 }, (err, stdout) => {
      resolve({ maxRedirects: !err && /\bmax_redirects\b/.test(stdout) });
    });
  });
}
