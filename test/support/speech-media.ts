// Direct media made from the speech fixtures, for the media-URL tests: an MP4 with the speech programme as its
// audio, a moving test picture and a title tag, and the programme as an HLS playlist of MPEG-TS segments. Made once
// per machine under the OS temp dir, as the programme itself is.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { speechProgramme, type Programme } from './speech-audio.ts';
import { needsSystemTool } from './system-needs.ts';

needsSystemTool('ffmpeg');

export const MEDIA_TITLE = 'Sense and Sensibility, read aloud';

export interface SpeechMedia {
  programme: Programme;
  /** MP4: H.264 test picture (320x180, 5 fps) and the programme as AAC, with a title tag. */
  mp4: string;
  /** Directory holding index.m3u8 and its segments (audio only). */
  hlsDir: string;
}

export function speechMedia(): SpeechMedia {
  const programme = speechProgramme();
  const dir = join(tmpdir(), 'subtext-test-audio');
  mkdirSync(dir, { recursive: true });
  const mp4 = join(dir, 'programme-v1.mp4');
  const ff = (args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
  if (!existsSync(mp4)) {
    const tmp = `${mp4}.${process.pid}.tmp.mp4`;
    ff([
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=320x180:rate=5:duration=${programme.seconds}`,
      '-i',
      programme.file,
      '-map',
      '0:v',
      '-map',
      '1:a',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-g',
      '10',
      '-c:a',
      'aac',
      '-b:a',
      '64k',
      '-metadata',
      `title=${MEDIA_TITLE}`,
      '-movflags',
      '+faststart',
      '-shortest',
      tmp,
    ]);
    renameSync(tmp, mp4);
  }
  const hlsDir = join(dir, 'programme-v1-hls');
  if (!existsSync(join(hlsDir, 'index.m3u8'))) {
    const tmp = `${hlsDir}.${process.pid}.tmp`;
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true });
    ff([
      '-i',
      programme.file,
      '-c:a',
      'aac',
      '-b:a',
      '64k',
      '-f',
      'hls',
      '-hls_time',
      '10',
      '-hls_playlist_type',
      'vod',
      '-hls_segment_filename',
      join(tmp, 'seg%03d.ts'),
      join(tmp, 'index.m3u8'),
    ]);
    rmSync(hlsDir, { recursive: true, force: true });
    renameSync(tmp, hlsDir);
  }
  return { programme, mp4, hlsDir };
}
