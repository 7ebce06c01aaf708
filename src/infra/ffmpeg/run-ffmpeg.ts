import { spawn } from 'node:child_process';

import { ServiceError } from '../../domain/errors.ts';
import { redactUrls } from './redact-urls.ts';

export interface RunFfmpegOptions {
  /** Written to stdin, which is otherwise closed. */
  stdin?: Buffer;
  /** Kills ffmpeg (SIGKILL) and rejects with the signal's reason. */
  signal: AbortSignal;
  /** stdout beyond this kills ffmpeg: a single frame is never this big. */
  maxBytes: number;
  /** ffmpeg's environment; the service's own by default. */
  env?: NodeJS.ProcessEnv;
}

/** Runs ffmpeg (no shell) and resolves with its stdout. A non-zero exit throws FRAME_FAILED with stderr's gist. */
export function runFfmpeg(ffmpegPath: string, args: string[], opts: RunFfmpegOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (opts.signal.aborted) return reject(opts.signal.reason);
    const child = spawn(ffmpegPath, args, { stdio: [opts.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'], env: opts.env });
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let failure: unknown;

    const kill = (why: unknown) => {
      failure ??= why;
      child.kill('SIGKILL');
    };
    const onAbort = () => kill(opts.signal.reason);
    opts.signal.addEventListener('abort', onAbort, { once: true });

    child.stdout!.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > opts.maxBytes) return kill(new ServiceError('FRAME_FAILED', 'frame capture produced too much output'));
      chunks.push(chunk);
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      if (stderr.length < 8192) stderr += chunk.toString('utf8');
    });
    if (opts.stdin) {
      // EPIPE when ffmpeg exits before reading everything (e.g. after -frames:v 1) is not an error of ours.
      child.stdin!.on('error', () => {});
      child.stdin!.end(opts.stdin);
    }
    let settled = false;
    const settle = () => {
      if (settled) return false;
      settled = true;
      opts.signal.removeEventListener('abort', onAbort);
      return true;
    };
    // 'close' is not guaranteed after a failed spawn (ENOENT, EACCES).
    child.on('error', (err) => {
      if (settle()) reject(failure ?? new ServiceError('FRAME_FAILED', `cannot run ffmpeg: ${err.message}`));
    });
    child.on('close', (code) => {
      if (!settle()) return;
      if (failure !== undefined) return reject(failure);
      if (code !== 0)
        return reject(new ServiceError('FRAME_FAILED', `ffmpeg failed: ${gist(stderr) || `exit ${code}`}`));
      resolve(Buffer.concat(chunks));
    });
  });
}

// The last stderr line, with URLs removed: they carry signatures and must not reach a client.
function gist(stderr: string): string {
  const line = stderr.trim().split('\n').at(-1) ?? '';
  return redactUrls(line).slice(0, 200);
}
