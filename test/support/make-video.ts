// Real videos for frame tests. Each second has its own colour, so a captured frame tells which second it shows:
// the left half encodes the second mod 64 and the right half floor(second / 64) mod 64, 4 levels per channel (far
// apart enough to survive H.264 and JPEG). A noise band on top gives the file a realistic size per second, so a
// test can tell a seek that reads a little from one that reads the whole file.
import { spawn } from 'node:child_process';
import { randomFillSync } from 'node:crypto';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { needsSystemTool } from './system-needs.ts';

needsSystemTool('ffmpeg');

export interface TestVideoOptions {
  seconds: number;
  width?: number;
  height?: number;
  fps?: number;
  /** Seconds between keyframes. */
  keyframeEvery?: number;
}

type Rgb = [number, number, number];

const level = (n: number) => (n % 4) * 85;
const digitColour = (d: number): Rgb => [level(d), level(d >> 2), level(d >> 4)];

/** The colours shown (left half, right half) during second `s`. */
function coloursAt(s: number): { left: Rgb; right: Rgb } {
  return { left: digitColour(s % 64), right: digitColour(Math.floor(s / 64) % 64) };
}

/** The second (mod 4096) whose colours these are, snapping each channel to the nearest level. */
function secondFromColours(left: Rgb, right: Rgb): number {
  const digit = (c: Rgb) => c.reduce((acc, v, i) => acc + Math.min(3, Math.max(0, Math.round(v / 85))) * 4 ** i, 0);
  return digit(left) + 64 * digit(right);
}

async function makeTestVideo(path: string, opts: TestVideoOptions): Promise<void> {
  const { seconds, width = 160, height = 90, fps = 1, keyframeEvery = 10 } = opts;
  const tmp = `${path}.${process.pid}.tmp.mp4`;
  const ffmpeg = spawn(
    'ffmpeg',
    [
      '-y',
      '-hide_banner',
      '-loglevel',
      'error',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-s',
      `${width}x${height}`,
      '-r',
      String(fps),
      '-i',
      'pipe:0',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-g',
      String(keyframeEvery * fps),
      '-pix_fmt',
      'yuv420p',
      '-movflags',
      '+faststart',
      tmp,
    ],
    { stdio: ['pipe', 'ignore', 'inherit'] },
  );
  const exited = new Promise<number | null>((resolve, reject) => {
    ffmpeg.on('error', reject);
    ffmpeg.on('close', resolve);
  });
  const frame = Buffer.alloc(width * height * 3);
  const noiseRows = Math.round(height * 0.2);
  for (let s = 0; s < seconds; s++) {
    const { left, right } = coloursAt(s);
    for (let y = noiseRows; y < height; y++) {
      for (let x = 0; x < width; x++) {
        frame.set(x < width / 2 ? left : right, (y * width + x) * 3);
      }
    }
    for (let f = 0; f < fps; f++) {
      randomFillSync(frame, 0, noiseRows * width * 3);
      // A copy: write() keeps a reference to what it queues, and the next second overwrites this buffer.
      if (!ffmpeg.stdin.write(Buffer.from(frame))) await new Promise((r) => ffmpeg.stdin.once('drain', r));
    }
  }
  ffmpeg.stdin.end();
  const code = await exited;
  if (code !== 0) throw new Error(`ffmpeg exited ${code} making a test video`);
  renameSync(tmp, path);
}

/** A test video cached under the OS temp dir, made on first use (a 3-hour 160x90 one takes about 2 s). */
export async function cachedTestVideo(opts: TestVideoOptions): Promise<string> {
  const dir = join(tmpdir(), 'subtext-test-videos');
  mkdirSync(dir, { recursive: true });
  const { seconds, width = 160, height = 90, fps = 1, keyframeEvery = 10 } = opts;
  const path = join(dir, `v2-${seconds}s-${width}x${height}-${fps}fps-g${keyframeEvery}.mp4`);
  if (!existsSync(path)) await makeTestVideo(path, opts);
  return path;
}

/** The average colour of a small box centred at (fx, fy), as fractions of the image, decoded by ffmpeg. */
async function sampleColour(image: Buffer, fx: number, fy: number): Promise<Rgb> {
  const crop = `crop=iw/16:ih/16:iw*${fx}-iw/32:ih*${fy}-ih/32,scale=1:1:flags=area`;
  const ffmpeg = spawn(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-i',
      'pipe:0',
      '-vf',
      crop,
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      'pipe:1',
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const out: Buffer[] = [];
  ffmpeg.stdout.on('data', (c: Buffer) => out.push(c));
  ffmpeg.stdin.end(image);
  await new Promise((resolve, reject) => ffmpeg.on('close', resolve).on('error', reject));
  const px = Buffer.concat(out);
  if (px.length < 3) throw new Error('could not decode image');
  return [px[0]!, px[1]!, px[2]!];
}

/** Which second of a test video an image shows (mod 4096). */
export async function secondShown(image: Buffer): Promise<number> {
  const [left, right] = await Promise.all([sampleColour(image, 0.25, 0.6), sampleColour(image, 0.75, 0.6)]);
  return secondFromColours(left, right);
}
