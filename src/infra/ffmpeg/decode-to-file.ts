// Runs an ffmpeg that writes 16 kHz mono s16le to stdout into a temporary file, measuring the loudness of every 20 ms
// frame as the bytes go by. Seconds are counted from the PCM bytes written, never from what the media claims.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceError } from '../../domain/errors.ts';
import { FRAME_SECONDS, SAMPLE_RATE, type DecodedAudio } from '../../domain/speech/ports.ts';
import { redactUrls } from './redact-urls.ts';

const BYTES_PER_SECOND = SAMPLE_RATE * 2;
const FRAME_SAMPLES = Math.round(SAMPLE_RATE * FRAME_SECONDS);

interface DecodeToFileOptions {
  signal?: AbortSignal;
  onProgress?: (seconds: number) => void;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

export async function decodeToFile(
  ffmpegPath: string,
  args: string[],
  opts: DecodeToFileOptions,
): Promise<DecodedAudio> {
  const dir = await mkdtemp(join(tmpdir(), 'subtext-audio-'));
  const file = join(dir, 'audio.s16le');
  const dispose = () => rm(dir, { recursive: true, force: true });
  try {
    const loudness = frameLoudness();
    const bytes = await pcmToFile(ffmpegPath, args, file, loudness, opts);
    return pcmFileAudio(file, bytes, loudness.frames(), dispose);
  } catch (err) {
    await dispose();
    throw err;
  }
}

/** ffmpeg's stdout into `file`, fed to `loudness` as it comes; resolves with the bytes written. */
function pcmToFile(
  ffmpegPath: string,
  args: string[],
  file: string,
  loudness: FrameLoudness,
  opts: DecodeToFileOptions,
): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const child = spawn(ffmpegPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: opts.env });
    const out = createWriteStream(file);
    let stderr = '';
    let bytes = 0;
    let lastReport = 0;
    let timedOut = false;
    const onAbort = () => child.kill('SIGKILL');
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = opts.timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          child.kill('SIGKILL');
        }, opts.timeoutMs)
      : undefined;
    child.stderr.on('data', (c: Buffer) => stderr.length < 8192 && (stderr += c.toString('utf8')));
    child.stdout.on('data', (chunk: Buffer) => {
      out.write(chunk);
      bytes += chunk.length;
      loudness.add(chunk);
      const seconds = bytes / BYTES_PER_SECOND;
      if (seconds - lastReport >= 30) {
        lastReport = seconds;
        opts.onProgress?.(seconds);
      }
    });
    child.on('error', (e) => reject(new ServiceError('EXTRACTION_FAILED', `cannot run ffmpeg: ${e.message}`)));
    child.on('close', (code) => {
      opts.signal?.removeEventListener('abort', onAbort);
      clearTimeout(timer);
      loudness.end();
      out.end(() => {
        if (opts.signal?.aborted) return reject(opts.signal.reason);
        if (timedOut) return reject(decodeTimedOut(opts.timeoutMs!));
        if (code !== 0)
          return reject(
            new ServiceError(
              'EXTRACTION_FAILED',
              `could not decode the audio: ${gist(stderr) || `ffmpeg exit ${code}`}`,
            ),
          );
        resolve(bytes);
      });
    });
  });
}

type FrameLoudness = ReturnType<typeof frameLoudness>;

/** The RMS of each FRAME_SAMPLES-sample frame of s16le audio fed in chunks of any size; the last frame may be short. */
function frameLoudness() {
  const rms: number[] = [];
  let carry: Buffer = Buffer.alloc(0);
  let sum = 0;
  let n = 0;
  return {
    add(chunk: Buffer) {
      const data = carry.length ? Buffer.concat([carry, chunk]) : chunk;
      const whole = data.length - (data.length % 2);
      for (let i = 0; i < whole; i += 2) {
        const v = data.readInt16LE(i) / 32768;
        sum += v * v;
        if (++n === FRAME_SAMPLES) {
          rms.push(Math.sqrt(sum / n));
          sum = 0;
          n = 0;
        }
      }
      carry = data.subarray(whole);
    },
    end() {
      if (n > 0) rms.push(Math.sqrt(sum / n));
    },
    frames: () => Float32Array.from(rms),
  };
}

function pcmFileAudio(file: string, bytes: number, frameRms: Float32Array, dispose: () => Promise<void>): DecodedAudio {
  const seconds = bytes / BYTES_PER_SECOND;
  return {
    seconds,
    frameRms,
    async read(start, end) {
      const from = Math.max(0, Math.floor(start * SAMPLE_RATE)) * 2;
      const to = Math.min(bytes, Math.ceil(end * SAMPLE_RATE) * 2);
      const buf = Buffer.alloc(Math.max(0, to - from));
      const fh = await open(file, 'r');
      try {
        await fh.read(buf, 0, buf.length, from);
      } finally {
        await fh.close();
      }
      return buf;
    },
    dispose,
  };
}

const decodeTimedOut = (timeoutMs: number) =>
  new ServiceError(
    'EXTRACTION_FAILED',
    `reading the media took longer than ${Math.round(timeoutMs / 1000)} s (STT_DECODE_TIMEOUT_MS); nothing was charged`,
  );

// The last stderr line, with URLs removed: they carry signatures and must not reach a client.
function gist(stderr: string): string {
  const line = stderr.trim().split('\n').at(-1) ?? '';
  return redactUrls(line).slice(0, 200);
}
